// L1 MSHR table (Miss Status Holding Registers of a GPU L1 data cache): ENTRIES distinct
// outstanding lines, each merging up to MERGE requests (slots); the first request to a
// line allocates an entry (primary miss), later ones merge into it (secondary misses);
// a fill counts down the entry's outstanding fills; a release streams the entry's slots
// out, oldest first, and frees it. The RTL twin of gputlm's C++ mshr_table
// (models/memory/mshr_table.h, the behaviour GPGPU-Sim's mshr_table models), with the
// same entry numbering: the last freed entry is reused first, else the lowest never used.
// Requesters are opaque handles the transactor gives (docs/rtl.md). Only the control state
// is reset; an entry's fields are meaningful while it is live.
//
// Interface (docs/rtl.md, "Pin convention"): one request channel and one response channel,
// each a valid/ready handshake; a request is taken at a rising clock edge with req_valid
// and req_ready high, and its response is held on the response channel from the next
// cycle until rsp_ready; a release answers one response per slot, rsp_last on the last.
// Plus status outputs and an asynchronous read port of one entry (rd_idx). ENTRIES and
// MERGE size the storage; cfg_entries (at most ENTRIES) is how many entries the table
// offers, so that one build serves every platform's L1.
//   op 0 FIND      line            -> rsp_hit, rsp_idx
//   op 1 ALLOCATE  line, sectors, handle, frame -> rsp_idx   (the table must not be full)
//   op 2 MERGE     idx, sectors, extra, handle  -> (ack)     (extra: sectors of a further fill)
//   op 3 FILL      idx             -> rsp_last: the entry's last outstanding fill arrived
//   op 4 RELEASE   idx             -> per slot: rsp_handle, rsp_sectors, rsp_last
module mshr_table #(
    parameter int ENTRIES = 32,
    parameter int MERGE = 8
) (
    input logic clk,
    input logic rst_n,
    input logic [15:0] cfg_entries,

    input  logic        req_valid,
    output logic        req_ready,
    input  logic [ 2:0] req_op,
    input  logic [63:0] req_line,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [15:0] req_idx,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [ 3:0] req_sectors,
    input  logic [ 3:0] req_extra,
    input  logic [31:0] req_handle,
    input  logic [31:0] req_frame,

    output logic        rsp_valid,
    input  logic        rsp_ready,
    output logic        rsp_hit,
    output logic [15:0] rsp_idx,
    output logic        rsp_last,
    output logic [31:0] rsp_handle,
    output logic [ 3:0] rsp_sectors,

    output logic [15:0] used,
    output logic [31:0] slots_used,
    output logic        full,
    output logic        busy,

    /* verilator lint_off UNUSEDSIGNAL */  // indices above the table's size are not looked at
    input  logic [15:0] rd_idx,
    /* verilator lint_on UNUSEDSIGNAL */
    output logic [63:0] rd_line,
    output logic [15:0] rd_slots,
    output logic [ 3:0] rd_pending,
    output logic [31:0] rd_frame,
    output logic [15:0] rd_outstanding,
    output logic [31:0] rd_seq
);
  localparam int IW = ENTRIES > 1 ? $clog2(ENTRIES) : 1;
  localparam int SW = MERGE > 1 ? $clog2(MERGE) : 1;
  localparam logic [2:0] OP_FIND = 3'd0, OP_ALLOCATE = 3'd1, OP_MERGE = 3'd2, OP_FILL = 3'd3,
                         OP_RELEASE = 3'd4;

  // Per entry.
  logic [63:0] line_q[ENTRIES];
  logic [ENTRIES-1:0] live_q;
  logic [15:0] slots_q[ENTRIES];
  logic [3:0] pending_q[ENTRIES];
  logic [31:0] frame_q[ENTRIES];
  logic [15:0] fills_q[ENTRIES];
  logic [31:0] seq_q[ENTRIES];
  // Per slot.
  logic [31:0] handle_q[ENTRIES][MERGE];
  logic [3:0] sectors_q[ENTRIES][MERGE];
  // Freed entries on a stack (the top at freed_q[nfreed_q - 1]), reused first; then the
  // entries never used yet, from fresh_q up.
  logic [IW-1:0] freed_q[ENTRIES];
  logic [IW:0] nfreed_q;
  logic [IW:0] fresh_q;
  logic [31:0] next_seq_q;
  logic [31:0] slots_used_q;

  // Release in progress: entry, next slot.
  logic releasing_q;
  logic [IW-1:0] rel_idx_q;
  logic [15:0] rel_slot_q;

  // Response registers.
  logic rsp_valid_q, rsp_hit_q, rsp_last_q;
  logic [15:0] rsp_idx_q;
  logic [31:0] rsp_handle_q;
  logic [3:0] rsp_sectors_q;

  // FIND: the live entry holding req_line (at most one).
  logic hit_c;
  logic [IW-1:0] hit_idx_c;
  always_comb begin
    hit_c = 1'b0;
    hit_idx_c = '0;
    for (int i = 0; i < ENTRIES; i++) begin
      if (live_q[i] && line_q[i] == req_line) begin
        hit_c = 1'b1;
        hit_idx_c = IW'(i);
      end
    end
  end

  wire [IW-1:0] idx_c = req_idx[IW-1:0];
  wire [IW-1:0] top_c = nfreed_q[IW-1:0] - 1'b1;  // (modulo 2^IW: also when all are freed)
  wire [IW-1:0] new_idx_c = nfreed_q != '0 ? freed_q[top_c] : fresh_q[IW-1:0];
  wire take = req_valid && req_ready;
  wire rsp_done = rsp_valid_q && rsp_ready;

  assign req_ready = !rsp_valid_q && !releasing_q;
  assign rsp_valid = rsp_valid_q;
  assign rsp_hit = rsp_hit_q;
  assign rsp_idx = rsp_idx_q;
  assign rsp_last = rsp_last_q;
  assign rsp_handle = rsp_handle_q;
  assign rsp_sectors = rsp_sectors_q;
  assign used = 16'(fresh_q) - 16'(nfreed_q);
  assign full = nfreed_q == '0 && 16'(fresh_q) >= cfg_entries;
  assign slots_used = slots_used_q;
  assign busy = rsp_valid_q || releasing_q;

  wire [IW-1:0] rd_c = rd_idx[IW-1:0];
  assign rd_line = line_q[rd_c];
  assign rd_slots = live_q[rd_c] ? slots_q[rd_c] : 16'd0;
  assign rd_pending = pending_q[rd_c];
  assign rd_frame = frame_q[rd_c];
  assign rd_outstanding = fills_q[rd_c];
  assign rd_seq = seq_q[rd_c];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      live_q <= '0;
      nfreed_q <= '0;
      fresh_q <= '0;
      next_seq_q <= '0;
      slots_used_q <= '0;
      releasing_q <= 1'b0;
      rel_idx_q <= '0;
      rel_slot_q <= '0;
      rsp_valid_q <= 1'b0;
      rsp_hit_q <= 1'b0;
      rsp_last_q <= 1'b0;
      rsp_idx_q <= '0;
      rsp_handle_q <= '0;
      rsp_sectors_q <= '0;
    end else begin
      if (rsp_done) rsp_valid_q <= 1'b0;
      if (releasing_q && (!rsp_valid_q || rsp_done)) begin
        // The next slot of the entry being released.
        rsp_valid_q <= 1'b1;
        rsp_handle_q <= handle_q[rel_idx_q][rel_slot_q[SW-1:0]];
        rsp_sectors_q <= sectors_q[rel_idx_q][rel_slot_q[SW-1:0]];
        rsp_last_q <= rel_slot_q + 16'd1 == slots_q[rel_idx_q];
        rsp_idx_q <= 16'(rel_idx_q);
        rel_slot_q <= rel_slot_q + 16'd1;
        if (rel_slot_q + 16'd1 == slots_q[rel_idx_q]) begin
          releasing_q <= 1'b0;
          slots_used_q <= slots_used_q - 32'(slots_q[rel_idx_q]);
          live_q[rel_idx_q] <= 1'b0;
          freed_q[nfreed_q[IW-1:0]] <= rel_idx_q;
          nfreed_q <= nfreed_q + 1'b1;
        end
      end else if (take) begin
        rsp_valid_q <= 1'b1;
        rsp_hit_q <= 1'b0;
        rsp_last_q <= 1'b0;
        rsp_idx_q <= req_idx;
        rsp_handle_q <= '0;
        rsp_sectors_q <= '0;
        case (req_op)
          OP_FIND: begin
            rsp_hit_q <= hit_c;
            rsp_idx_q <= hit_c ? 16'(hit_idx_c) : 16'hffff;
          end
          OP_ALLOCATE: begin
            live_q[new_idx_c] <= 1'b1;
            line_q[new_idx_c] <= req_line;
            slots_q[new_idx_c] <= 16'd1;
            pending_q[new_idx_c] <= req_sectors;
            frame_q[new_idx_c] <= req_frame;
            fills_q[new_idx_c] <= 16'd1;
            seq_q[new_idx_c] <= next_seq_q;
            handle_q[new_idx_c][0] <= req_handle;
            sectors_q[new_idx_c][0] <= req_sectors;
            next_seq_q <= next_seq_q + 32'd1;
            slots_used_q <= slots_used_q + 32'd1;
            if (nfreed_q != '0) nfreed_q <= nfreed_q - 1'b1;
            else fresh_q <= fresh_q + 1'b1;
            rsp_idx_q <= 16'(new_idx_c);
          end
          OP_MERGE: begin
            handle_q[idx_c][slots_q[idx_c][SW-1:0]] <= req_handle;
            sectors_q[idx_c][slots_q[idx_c][SW-1:0]] <= req_sectors;
            slots_q[idx_c] <= slots_q[idx_c] + 16'd1;
            slots_used_q <= slots_used_q + 32'd1;
            if (req_extra != 4'd0) begin
              pending_q[idx_c] <= pending_q[idx_c] | req_extra;
              fills_q[idx_c] <= fills_q[idx_c] + 16'd1;
            end
          end
          OP_FILL: begin
            if (fills_q[idx_c] != 16'd0) fills_q[idx_c] <= fills_q[idx_c] - 16'd1;
`ifdef MSHR_OFF_BY_ONE  // a deliberately broken build, for the tests that must catch it
            rsp_last_q <= fills_q[idx_c] <= 16'd2;
`else
            rsp_last_q <= fills_q[idx_c] <= 16'd1;
`endif
          end
          OP_RELEASE: begin
            // The slots follow one a cycle from the next cycle on.
            rsp_valid_q <= 1'b0;
            releasing_q <= 1'b1;
            rel_idx_q <= idx_c;
            rel_slot_q <= '0;
          end
          default: begin
            rsp_valid_q <= 1'b1;  // an unknown op is answered, changing nothing
          end
        endcase
      end
    end
  end
endmodule
