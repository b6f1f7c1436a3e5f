// TB dispatch unit of the SMX scheduler (DTBL thesis §2.2, Fig. 1; docs/references.md,
// "CDP and DTBL"): the resource table of every SMX and the dispatch-side view of every
// Kernel Distributor entry; one TB per DISPATCH, from the FCFS-oldest entry whose next TB
// fits some SMX, to the first SMX in round-robin order (after the one chosen last) with
// room by every limit: TB slots, threads (whole warps), registers (per thread rounded up to
// 4, whole warps), shared memory; with cfg_shared low an SMX holds one kernel's TBs at a
// time. The RTL twin of the C++ smx_scheduler's LRR policy
// (models/control/smx_scheduler.cpp, tb_policy.cpp, dispatch_policies.cpp).
//
// Registers are written and read in the packed layouts of
// models/control/register_layout.h (docs/rtl.md has the tables): the SMX capability
// register (3 words), the first 5 words of a KDE, and the TBCR (4 words) this unit writes
// for each TB and takes back at the TB's completion.
//
// Pins (docs/rtl.md, pin convention): one request channel, one response channel.
//   req_op 0 CAPS     req_index = SMX, req_data[191:0] = its capability register
//          1 KDE      req_index = entry, req_data[319:0] = KDE words 0..4 (valid = 0 frees)
//          2 DISPATCH response: rsp_found, rsp_smx, rsp_tbcr (the TB's TBCR), the TB
//                     counted in the SMX's table and the entry's NextBL advanced
//          3 RELEASE  req_index = SMX, req_data[255:0] = the completed TB's TBCR
// Every request has one response (rsp_found low for all but a DISPATCH that found a TB).
// `busy` is high while a response waits on its channel.
//
// TBD_OFF_BY_ONE (tests only): the round robin resumes one SMX too far (after the one
// chosen last, it skips the next).
module tb_dispatch #(
    parameter int KDES = 128,
    parameter int SMXS = 128
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic [15:0]  cfg_smxs,       // SMXs served (<= SMXS)
    input  logic [3:0]   cfg_warp_log2,  // warp size = 1 << cfg_warp_log2
    input  logic         cfg_shared,     // kernels may share an SMX
    input  logic         req_valid,
    output logic         req_ready,
    input  logic [1:0]   req_op,
    input  logic [15:0]  req_index,
    input  logic [319:0] req_data,
    output logic         rsp_valid,
    input  logic         rsp_ready,
    output logic         rsp_found,
    output logic [15:0]  rsp_smx,
    output logic [255:0] rsp_tbcr,
    output logic [31:0]  resident_tbs,   // TBs on all SMXs
    output logic         busy
);
  localparam int KW = $clog2(KDES), SW = $clog2(SMXS);
  localparam logic [1:0] OP_CAPS = 2'd0, OP_KDE = 2'd1, OP_DISPATCH = 2'd2, OP_RELEASE = 2'd3;

  // Per entry (KDE words 0..4).
  logic [KDES-1:0] kde_valid;
  logic [31:0] kde_kernel[KDES], kde_total[KDES], kde_next[KDES];
  logic [31:0] kde_threads[KDES], kde_regs[KDES], kde_shmem[KDES];
  logic [63:0] kde_fcfs[KDES];
  // Per SMX: capabilities and what its resident TBs hold.
  logic [31:0] cap_tbs[SMXS], cap_threads[SMXS], cap_regs[SMXS];
  logic [63:0] cap_shmem[SMXS];
  logic [31:0] use_tbs[SMXS], use_threads[SMXS], use_regs[SMXS], use_kernel[SMXS];
  logic [63:0] use_shmem[SMXS];
  logic [SW-1:0] rr_next;
  wire  [KW-1:0] req_kde = req_index[KW-1:0];
  wire  [SW-1:0] req_smx = req_index[SW-1:0];
  wire           unused_index = ^req_index[15:(KW < SW ? KW : SW)];  // beyond the storage

  // Threads of a TB padded to whole warps, and the registers they occupy (32-bit, as the
  // C++ occupancy arithmetic computes them).
  function automatic logic [31:0] padded(input logic [31:0] threads);
    logic [31:0] mask;
    mask = (32'd1 << cfg_warp_log2) - 32'd1;
    return (threads + mask) & ~mask;
  endfunction
  function automatic logic [31:0] regs_of(input logic [31:0] threads, input logic [31:0] rpt);
    return padded(threads) * ((rpt + 32'd3) & ~32'd3);
  endfunction

  function automatic logic fits(input logic [KW-1:0] k, input logic [SW-1:0] s);
    logic [32:0] t, r;
    logic [64:0] m;
    logic [32:0] n;
    n = {1'b0, use_tbs[s]} + 33'd1;
    t = {1'b0, use_threads[s]} + {1'b0, padded(kde_threads[k])};
    r = {1'b0, use_regs[s]} + {1'b0, regs_of(kde_threads[k], kde_regs[k])};
    m = {1'b0, use_shmem[s]} + {33'b0, kde_shmem[k]};
    if (n > {1'b0, cap_tbs[s]}) return 1'b0;
    if (use_tbs[s] != 32'd0 && !cfg_shared && use_kernel[s] != kde_kernel[k]) return 1'b0;
    return t <= {1'b0, cap_threads[s]} && r <= {1'b0, cap_regs[s]} && m <= {1'b0, cap_shmem[s]};
  endfunction

  // The choice, from the registers as they stand.
  logic          pick_found;
  logic [KW-1:0] pick_kde;
  logic [SW-1:0] pick_smx;
  always_comb begin
    logic [63:0] best;
    logic        any;
    int          s;
    any = 1'b0;
    s = 0;
    pick_found = 1'b0;
    pick_kde = '0;
    pick_smx = '0;
    best = '1;
    for (int k = 0; k < KDES; k++) begin
      if (kde_valid[k] && kde_next[k] < kde_total[k] && (!pick_found || kde_fcfs[k] < best)) begin
        any = 1'b0;
        for (int j = 0; j < SMXS; j++)
          if (j < int'(cfg_smxs) && !any && fits(k[KW-1:0], j[SW-1:0])) any = 1'b1;
        if (any) begin
          pick_found = 1'b1;
          pick_kde = k[KW-1:0];
          best = kde_fcfs[k];
        end
      end
    end
    if (pick_found) begin
      any = 1'b0;
      for (int j = 0; j < SMXS; j++) begin
        s = int'(rr_next) + j;
        if (s >= int'(cfg_smxs)) s = s - int'(cfg_smxs);
        if (j < int'(cfg_smxs) && !any && fits(pick_kde, s[SW-1:0])) begin
          any = 1'b1;
          pick_smx = s[SW-1:0];
        end
      end
    end
  end

  // The TBCR of the chosen TB (register_layout.h, tbcr_layout).
  logic [255:0] pick_tbcr;
  always_comb begin
    pick_tbcr = '0;
    pick_tbcr[31:0]    = kde_next[pick_kde];     // tb
    pick_tbcr[63:32]   = kde_kernel[pick_kde];   // kernel
    pick_tbcr[95:64]   = 32'(pick_kde);          // kde
    pick_tbcr[127:96]  = 32'hffff_ffff;          // agei: none (native TBs)
    pick_tbcr[159:128] = kde_threads[pick_kde];  // threads
    pick_tbcr[191:160] = kde_regs[pick_kde];     // regs_per_thread
    pick_tbcr[255:192] = {32'd0, kde_shmem[pick_kde]};  // shared_memory
  end

  // A released TB's demand, from its TBCR.
  logic [31:0] rel_threads, rel_regs;
  logic [63:0] rel_shmem;
  always_comb begin
    rel_threads = padded(req_data[159:128]);
    rel_regs = regs_of(req_data[159:128], req_data[191:160]);
    rel_shmem = req_data[255:192];
  end

  logic [31:0] resident;
  assign req_ready = !rsp_valid;
  assign busy = rsp_valid;
  assign resident_tbs = resident;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      kde_valid <= '0;
      rr_next <= '0;
      resident <= '0;
      rsp_valid <= 1'b0;
      rsp_found <= 1'b0;
      rsp_smx <= '0;
      rsp_tbcr <= '0;
    end else begin
      if (rsp_valid && rsp_ready) rsp_valid <= 1'b0;
      if (req_valid && req_ready) begin
        rsp_valid <= 1'b1;
        rsp_found <= 1'b0;
        case (req_op)
          OP_CAPS: begin
            cap_tbs[req_smx] <= req_data[31:0];
            cap_threads[req_smx] <= req_data[63:32];
            cap_regs[req_smx] <= req_data[127:96];
            cap_shmem[req_smx] <= req_data[191:128];
            use_tbs[req_smx] <= '0;  // (re)initialised: no TB resident
            use_threads[req_smx] <= '0;
            use_regs[req_smx] <= '0;
            use_shmem[req_smx] <= '0;
            use_kernel[req_smx] <= '0;
          end
          OP_KDE: begin
            kde_kernel[req_kde] <= req_data[31:0];
            kde_total[req_kde] <= req_data[63:32];
            kde_next[req_kde] <= req_data[95:64];
            kde_threads[req_kde] <= req_data[159:128];
            kde_regs[req_kde] <= req_data[191:160];
            kde_shmem[req_kde] <= req_data[223:192];
            kde_valid[req_kde] <= req_data[224];
            kde_fcfs[req_kde] <= req_data[319:256];
          end
          OP_DISPATCH: begin
            if (pick_found) begin
              rsp_found <= 1'b1;
              rsp_smx <= 16'(pick_smx);
              rsp_tbcr <= pick_tbcr;
              kde_next[pick_kde] <= kde_next[pick_kde] + 32'd1;
              use_tbs[pick_smx] <= use_tbs[pick_smx] + 32'd1;
              use_threads[pick_smx] <= use_threads[pick_smx] + padded(kde_threads[pick_kde]);
              use_regs[pick_smx] <=
                  use_regs[pick_smx] + regs_of(kde_threads[pick_kde], kde_regs[pick_kde]);
              use_shmem[pick_smx] <= use_shmem[pick_smx] + {32'd0, kde_shmem[pick_kde]};
              use_kernel[pick_smx] <= kde_kernel[pick_kde];
`ifdef TBD_OFF_BY_ONE
              // (the bug: the round robin resumes one SMX too far)
              rr_next <= 16'(pick_smx) + 16'd2 >= cfg_smxs ? '0 : pick_smx + SW'(2);
`else
              rr_next <= 16'(pick_smx) + 16'd1 == cfg_smxs ? '0 : pick_smx + SW'(1);
`endif
              resident <= resident + 32'd1;
            end
          end
          OP_RELEASE: begin
            use_tbs[req_smx] <= use_tbs[req_smx] - 32'd1;
            use_threads[req_smx] <= use_threads[req_smx] - rel_threads;
            use_regs[req_smx] <= use_regs[req_smx] - rel_regs;
            use_shmem[req_smx] <= use_shmem[req_smx] - rel_shmem;
            resident <= resident - 32'd1;
          end
          default: ;
        endcase
      end
    end
  end
endmodule
