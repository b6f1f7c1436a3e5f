// gputlm binary trace: writer and reader (layout in binary_format.h and docs/traces.md).
#include "traces/binary_format.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <future>
#include <stdexcept>
#include <unordered_map>

#include "traces/trace_writer.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the GTB layout is little-endian");

namespace gputlm::traces {

// XXH64 (seed 0, libxxhash), the checksum of every block, the directory and the header:
// fast enough (about 3 times zlib's CRC-32 here) to check every block on every read.
std::uint64_t binary::checksum(const void* data, std::size_t n) { return XXH64(data, n, 0); }

namespace {

namespace fs = std::filesystem;
using namespace binary;

// ---------------------------------------------------------------- byte packing

class packer {
 public:
  std::string buf;
  template <typename T>
  void put(T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    buf.append(b, sizeof(T));
  }
  void put_str(const std::string& s) {
    put<std::uint32_t>(std::uint32_t(s.size()));
    buf += s;
  }
  void put_dim(const dim3& d) {
    put(d.x);
    put(d.y);
    put(d.z);
  }
};

// Bounds-checked reading; every failure is an input_error naming the file and `what`.
class unpacker {
 public:
  unpacker(const char* p, std::size_t n, const std::string& file, std::string what)
      : m_p(p), m_end(p + n), m_file(file), m_what(std::move(what)) {}
  template <typename T>
  T get(const char* field) {
    need(sizeof(T), field);
    T v;
    std::memcpy(&v, m_p, sizeof(T));
    m_p += sizeof(T);
    return v;
  }
  std::string get_str(const char* field) {
    std::uint32_t n = get<std::uint32_t>(field);
    need(n, field);
    std::string s(m_p, n);
    m_p += n;
    return s;
  }
  dim3 get_dim(const char* field) {
    dim3 d;
    d.x = get<std::uint32_t>(field);
    d.y = get<std::uint32_t>(field);
    d.z = get<std::uint32_t>(field);
    return d;
  }
  // Guards a count read from the file before it sizes an allocation.
  void need_items(std::uint64_t count, std::size_t item_bytes, const char* field) {
    if (count > std::uint64_t(m_end - m_p) / item_bytes)
      fail(field, fmt::format("count {} exceeds the remaining {} bytes", count, m_end - m_p));
  }
  const char* pos() const { return m_p; }
  std::size_t left() const { return std::size_t(m_end - m_p); }
  void skip(std::size_t n, const char* field) {
    need(n, field);
    m_p += n;
  }
  [[noreturn]] void fail(const char* field, const std::string& msg) const {
    throw input_error(source_location{m_file, 0, 0}, m_what + ": " + field, msg);
  }

 private:
  void need(std::size_t n, const char* field) const {
    if (n > std::size_t(m_end - m_p)) fail(field, "truncated record");
  }
  const char* m_p;
  const char* m_end;
  const std::string& m_file;
  std::string m_what;
};

// ---------------------------------------------------------------- common records

struct tb_entry {
  std::uint32_t linear_id, block, offset, size;
};

struct block_entry {
  std::uint64_t offset;
  std::uint32_t csize, rsize;
  std::uint64_t sum;  // XXH64 of the compressed bytes
};

struct kernel_meta {
  kernel_info info;
  std::vector<std::string> mnemonics;
  std::vector<tb_entry> tbs;  // sorted by linear id
};

// A block's raw bytes: u32 static count, the static instruction records, then the TB
// records (TB offsets count from the end of the static records).
//
// Static record (what stays the same every time a warp executes the instruction):
//   u32 pc, u32 line, u16 opcode, u8 access size, u8 dst/src counts, u16 dst[2], u16 src[4],
//   i32 immediate
// Dynamic record: u32 static index, u32 active mask, u8 flags, u8 memory space.
constexpr std::size_t static_record_bytes = 28;
// Dynamic record flags.
constexpr std::uint8_t form_mask = 3;     // per-lane addresses: 0 none,
constexpr std::uint8_t form_stride = 1;   //   u64 base + stride (active lane k: base + k*stride),
                                          //   at least 2 lanes, w <= 2: address_form::strided
constexpr std::uint8_t form_delta = 2;    //   u64 base + (lanes-1) deltas: address_form::list
constexpr unsigned width_shift = 2;       // bits 2-3: w; strides and deltas are signed 2^w bytes
constexpr std::uint8_t flag_launch = 16;  // ext_index = next record of the warp's launches
constexpr std::uint8_t flag_ext = 32;     // ext_index = next u32 of the warp's ext stream
constexpr std::uint8_t flags_known = 63;

bool is_launch(const warp_instruction& in) {
  return (in.special == special_op::launch_kernel || in.special == special_op::launch_agg_group) &&
         in.ext_index != warp_instruction::none;
}
bool has_addresses(const warp_instruction& in) {
  return in.access_size > 0 && in.addr_index != warp_instruction::none;
}

// ---------------------------------------------------------------- writer

class binary_writer final : public trace_writer {
 public:
  explicit binary_writer(const std::string& file) : m_final(file), m_tmp(file + ".partial") {
    m_f = std::fopen(m_tmp.c_str(), "wb");
    if (!m_f)
      throw std::runtime_error(fmt::format("{}: cannot create: {}", m_tmp, std::strerror(errno)));
    char zero[header_bytes] = {};
    write(zero, sizeof zero);
    m_pos = header_bytes;
    ZSTD_CCtx_setParameter(m_cctx.get(), ZSTD_c_compressionLevel, 3);
    // Literals stored raw (ZSTD_c_literalCompressionMode = uncompressed): the leftover
    // literals are mostly scattered addresses that Huffman barely shrinks (about 7%), and
    // decoding them is then a copy: a third less decode time. Older libzstd ignores it.
    ZSTD_CCtx_setParameter(m_cctx.get(), ZSTD_c_experimentalParam5, 2);
    // Blocks carry an XXH64 of their compressed bytes; zstd's own checksum of the
    // (larger) content would cost more.
  }

  ~binary_writer() override {
    if (m_f) {
      std::fclose(m_f);
      std::error_code ec;
      fs::remove(m_tmp, ec);
    }
  }

  void note(const std::string& text) override {
    check_note(text);
    m_notes.push_back(text);
  }

  void memcpy_h2d(std::uint64_t addr, std::uint64_t bytes) override {
    command c;
    c.what = command::kind::memcpy_h2d;
    c.addr = addr;
    c.bytes = bytes;
    m_commands.push_back(c);
  }

  void begin_kernel(const kernel_info& info) override {
    if (m_in_kernel) throw std::logic_error("trace_writer: begin_kernel inside a kernel");
    m_in_kernel = true;
    command c;
    c.what = info.device_launched ? command::kind::device_kernel : command::kind::kernel_launch;
    c.kernel_file = fmt::format("kernel-{}.traceg", info.id);
    m_commands.push_back(c);
    m_kernels.emplace_back();
    m_kernels.back().info = info;
    m_ops = opcode_table(info.binary_version);
    m_src_ops = nullptr;
    m_remap.clear();
  }

  void write_tb(const tb_trace& tb, const opcode_table& ops) override {
    if (!m_in_kernel) throw std::logic_error("trace_writer: write_tb outside a kernel");
    if (&ops != m_src_ops) {
      m_src_ops = &ops;
      m_remap.clear();
    }
    std::size_t start = m_raw.size();
    encode(tb, ops);
    std::size_t size = m_raw.size() - start;
    if (size > max_block_bytes)
      throw std::length_error("trace_writer: one TB exceeds the 2 GiB block limit");
    m_pending.push_back(tb_entry{tb.linear_id, 0, std::uint32_t(start), std::uint32_t(size)});
    if (m_raw.size() + m_statics.size() >= block_target_bytes) flush_block();
  }

  void end_kernel() override {
    if (!m_in_kernel) throw std::logic_error("trace_writer: end_kernel without begin_kernel");
    flush_block();
    kernel_meta& k = m_kernels.back();
    for (std::size_t i = 0; i < m_ops.size(); ++i)
      k.mnemonics.push_back(m_ops[std::uint16_t(i)].mnemonic);
    std::sort(k.tbs.begin(), k.tbs.end(),
              [](const tb_entry& a, const tb_entry& b) { return a.linear_id < b.linear_id; });
    for (std::size_t i = 1; i < k.tbs.size(); ++i)
      if (k.tbs[i].linear_id == k.tbs[i - 1].linear_id)
        throw std::logic_error(fmt::format("trace_writer: kernel {} TB {} written twice", k.info.id,
                                           k.tbs[i].linear_id));
    m_in_kernel = false;
  }

  void finish() override {
    if (m_in_kernel) end_kernel();
    packer d;
    d.put<std::uint32_t>(std::uint32_t(m_commands.size()));
    std::uint32_t kernel_no = 0;
    for (const command& c : m_commands) {
      d.put<std::uint8_t>(std::uint8_t(c.what));
      d.put(c.addr);
      d.put(c.bytes);
      d.put_str(c.kernel_file);
      d.put<std::uint32_t>(c.what == command::kind::memcpy_h2d ? ~0u : kernel_no++);
    }
    d.put<std::uint32_t>(std::uint32_t(m_kernels.size()));
    for (const kernel_meta& k : m_kernels) {
      const kernel_info& i = k.info;
      d.put_str(i.name);
      d.put(i.id);
      d.put_dim(i.grid);
      d.put_dim(i.block);
      d.put(i.shmem);
      d.put(i.nregs);
      d.put(i.binary_version);
      d.put(i.stream_id);
      d.put(i.shmem_base);
      d.put(i.local_base);
      d.put_str(i.nvbit_version);
      d.put(i.tracer_version);
      d.put<std::uint8_t>(i.lineinfo);
      d.put<std::uint8_t>(i.device_launched);
      d.put<std::uint32_t>(std::uint32_t(k.mnemonics.size()));
      for (const std::string& m : k.mnemonics) d.put_str(m);
      d.put<std::uint64_t>(k.tbs.size());
      for (const tb_entry& t : k.tbs) {
        d.put(t.linear_id);
        d.put(t.block);
        d.put(t.offset);
        d.put(t.size);
      }
    }
    d.put<std::uint32_t>(std::uint32_t(m_blocks.size()));
    for (const block_entry& b : m_blocks) {
      d.put(b.offset);
      d.put(b.csize);
      d.put(b.rsize);
      d.put(b.sum);
    }
    if (!m_notes.empty()) {
      d.put<std::uint32_t>(std::uint32_t(m_notes.size()));
      for (const std::string& n : m_notes) d.put_str(n);
    }
    std::string dir = compress(d.buf);
    std::uint64_t dir_offset = m_pos;
    write(dir.data(), dir.size());

    packer h;
    h.buf.append(magic, sizeof magic);
    h.put(m_notes.empty() ? oldest_format_version : format_version);
    h.put<std::uint32_t>(0);
    h.put<std::uint64_t>(dir_offset);
    h.put<std::uint64_t>(dir.size());
    h.put<std::uint64_t>(d.buf.size());
    h.put(checksum(dir.data(), dir.size()));
    h.put(checksum(h.buf.data(), h.buf.size()));
    h.buf.resize(header_bytes, '\0');
    if (std::fseek(m_f, 0, SEEK_SET) != 0) io_fail("seek failed");
    write(h.buf.data(), h.buf.size());
    FILE* f = m_f;
    m_f = nullptr;
    if (std::fclose(f) != 0) io_fail("write failed");
    std::error_code ec;
    fs::rename(m_tmp, m_final, ec);
    if (ec) throw std::runtime_error(fmt::format("{}: cannot rename: {}", m_final, ec.message()));
  }

 private:
  [[noreturn]] void io_fail(const char* what) {
    throw std::runtime_error(fmt::format("{}: {}: {}", m_tmp, what, std::strerror(errno)));
  }
  void write(const void* p, std::size_t n) {
    if (std::fwrite(p, 1, n, m_f) != n) io_fail("write failed");
    m_pos += n;
  }

  std::string compress(const std::string& raw) {
    std::string out(ZSTD_compressBound(raw.size()), '\0');
    std::size_t n = ZSTD_compress2(m_cctx.get(), out.data(), out.size(), raw.data(), raw.size());
    if (ZSTD_isError(n)) throw std::runtime_error(fmt::format("zstd: {}", ZSTD_getErrorName(n)));
    out.resize(n);
    return out;
  }

  void flush_block() {
    if (m_pending.empty()) return;
    packer block;
    block.put<std::uint32_t>(std::uint32_t(m_statics.size() / static_record_bytes));
    block.buf += m_statics;
    block.buf += m_raw;
    if (block.buf.size() > max_block_bytes)
      throw std::length_error("trace_writer: block exceeds 2 GiB");
    std::string c = compress(block.buf);
    auto block_no = std::uint32_t(m_blocks.size());
    m_blocks.push_back(block_entry{m_pos, std::uint32_t(c.size()), std::uint32_t(block.buf.size()),
                                   checksum(c.data(), c.size())});
    write(c.data(), c.size());
    for (tb_entry& e : m_pending) {
      e.block = block_no;
      m_kernels.back().tbs.push_back(e);
    }
    m_pending.clear();
    m_raw.clear();
    m_statics.clear();
    m_static_ids.clear();
  }

  std::uint16_t map_opcode(std::uint16_t id, const opcode_table& ops) {
    if (id >= m_remap.size()) {
      if (id >= ops.size())
        throw std::logic_error(
            fmt::format("trace_writer: opcode id {} outside the table ({})", id, ops.size()));
      m_remap.resize(ops.size(), -1);
    }
    if (m_remap[id] < 0) m_remap[id] = m_ops.intern(ops[id].mnemonic);
    return std::uint16_t(m_remap[id]);
  }

  // Smallest w such that every value in [lo, hi] fits a signed 2^w-byte integer.
  static unsigned width_for(std::int64_t lo, std::int64_t hi) {
    unsigned w = 0;
    while (w < 3 && (lo < -(std::int64_t(1) << (8 * (1 << w) - 1)) ||
                     hi >= (std::int64_t(1) << (8 * (1 << w) - 1))))
      ++w;
    return w;
  }

  static void put_signed(packer& out, std::uint64_t v, unsigned w) {
    char b[8];
    std::memcpy(b, &v, 8);
    out.buf.append(b, std::size_t(1) << w);
  }

  // Appends the per-lane addresses of `in` to `out` and returns the record flags' form bits.
  // The stride form is chosen exactly when set_addresses() would choose address_form::strided,
  // so the reader rebuilds the form the writer was given (or the one a reader would make).
  static std::uint8_t encode_addresses(const warp_instruction& in, const warp_trace& w, packer& out,
                                       std::uint32_t& slots) {
    if (std::size_t(in.addr_index) + address_slots(in) > w.addresses.size())
      throw std::logic_error("trace_writer: instruction addresses outside the warp's");
    std::uint64_t a[32];
    const std::uint32_t n = expand_addresses(w, in, a);
    std::uint64_t stride = n > 1 ? a[1] - a[0] : 0;
    bool strided = n > 1 && width_for(std::int64_t(stride), std::int64_t(stride)) <= 2;
    std::int64_t lo = 0, hi = 0;
    if (in.addr_form != address_form::strided || !strided) {
      for (std::uint32_t i = 1; i < n; ++i) {
        auto d = std::int64_t(a[i] - a[i - 1]);
        strided = strided && std::uint64_t(d) == stride;
        lo = std::min(lo, d);
        hi = std::max(hi, d);
      }
    }
    out.put<std::uint64_t>(n ? a[0] : 0);
    if (strided) {
      unsigned w2 = width_for(std::int64_t(stride), std::int64_t(stride));
      put_signed(out, stride, w2);
      slots += 1;
      return std::uint8_t(form_stride | (w2 << width_shift));
    }
    unsigned w2 = width_for(lo, hi);
    for (std::uint32_t i = 1; i < n; ++i) put_signed(out, a[i] - a[i - 1], w2);
    slots += n;
    return std::uint8_t(form_delta | (w2 << width_shift));
  }

  // Index of the static part of `in` in the current block's table.
  std::uint32_t static_index(const warp_instruction& in, const opcode_table& ops) {
    static_key k{};
    std::uint16_t op = map_opcode(in.opcode, ops);
    std::uint8_t size = has_addresses(in) ? in.access_size : 0;
    std::uint8_t counts = std::uint8_t(std::min<std::uint8_t>(in.num_dst, 2) |
                                       (std::min<std::uint8_t>(in.num_src, 4) << 4));
    std::memcpy(k.b + 0, &in.pc, 4);
    std::memcpy(k.b + 4, &in.line, 4);
    std::memcpy(k.b + 8, &op, 2);
    std::memcpy(k.b + 10, &size, 1);
    std::memcpy(k.b + 11, &counts, 1);
    for (int i = 0; i < 2; ++i) {
      std::uint16_t r = i < in.num_dst ? in.dst[i] : warp_instruction::no_reg;
      std::memcpy(k.b + 12 + 2 * i, &r, 2);
    }
    for (int i = 0; i < 4; ++i) {
      std::uint16_t r = i < in.num_src ? in.src[i] : warp_instruction::no_reg;
      std::memcpy(k.b + 16 + 2 * i, &r, 2);
    }
    std::memcpy(k.b + 24, &in.immediate, 4);
    auto [it, fresh] =
        m_static_ids.emplace(k, std::uint32_t(m_statics.size() / static_record_bytes));
    if (fresh) m_statics.append(k.b, static_record_bytes);
    return it->second;
  }

  void encode(const tb_trace& tb, const opcode_table& ops) {
    packer& p = m_packer;
    p.buf.swap(m_raw);
    p.put(tb.linear_id);
    p.put_dim(tb.index);
    p.put<std::uint32_t>(std::uint32_t(tb.warps.size()));
    packer& addr = m_addr;
    packer& ext = m_ext;
    packer& launches = m_launches;
    for (const warp_trace& w : tb.warps) {
      addr.buf.clear();
      ext.buf.clear();
      launches.buf.clear();
      std::uint32_t slots = 0, nlaunch = 0;
      std::size_t head = p.buf.size();
      p.buf.append(5 * 4, '\0');  // warp header, filled in below
      for (const warp_instruction& in : w.insts) {
        std::uint8_t flags = 0;
        if (has_addresses(in)) {
          flags = encode_addresses(in, w, addr, slots);
        }
        if (is_launch(in)) {
          if (in.ext_index >= w.launches.size())
            throw std::logic_error("trace_writer: launch index outside the warp's launches");
          const device_launch& l = w.launches[in.ext_index];
          launches.put(l.child_kernel);
          launches.put_dim(l.grid);
          launches.put_dim(l.block);
          launches.put(l.shmem);
          launches.put(l.param_addr);
          flags |= flag_launch;
          ++nlaunch;
        } else if (in.ext_index != warp_instruction::none) {
          ext.put(in.ext_index);
          flags |= flag_ext;
        }
        char r[inst_record_bytes];
        std::uint32_t si = static_index(in, ops);
        std::uint8_t space = std::uint8_t(in.space);
        std::memcpy(r + 0, &si, 4);
        std::memcpy(r + 4, &in.active_mask, 4);
        std::memcpy(r + 8, &flags, 1);
        std::memcpy(r + 9, &space, 1);
        p.buf.append(r, sizeof r);
      }
      std::uint32_t header[5] = {std::uint32_t(w.insts.size()), slots,
                                 std::uint32_t(addr.buf.size()), std::uint32_t(ext.buf.size() / 4),
                                 nlaunch};
      std::memcpy(&p.buf[head], header, sizeof header);
      p.buf += addr.buf;
      p.buf += ext.buf;
      p.buf += launches.buf;
    }
    p.buf.swap(m_raw);
  }

  struct static_key {
    char b[static_record_bytes];
    bool operator==(const static_key& o) const { return std::memcmp(b, o.b, sizeof b) == 0; }
  };
  struct static_hash {
    std::size_t operator()(const static_key& k) const {
      return std::hash<std::string_view>()(std::string_view(k.b, sizeof k.b));
    }
  };

  std::string m_final, m_tmp;
  FILE* m_f = nullptr;
  std::uint64_t m_pos = 0;
  std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> m_cctx{ZSTD_createCCtx(), &ZSTD_freeCCtx};
  std::vector<command> m_commands;
  std::vector<std::string> m_notes;
  std::vector<kernel_meta> m_kernels;
  std::vector<block_entry> m_blocks;
  std::vector<tb_entry> m_pending;
  std::string m_raw;
  packer m_packer, m_addr, m_ext, m_launches;
  std::string m_statics;  // static records of the current block
  std::unordered_map<static_key, std::uint32_t, static_hash> m_static_ids;
  bool m_in_kernel = false;
  opcode_table m_ops;
  const opcode_table* m_src_ops = nullptr;
  std::vector<int> m_remap;
};

// ---------------------------------------------------------------- reader

class binary_file {
 public:
  binary_file(const std::string& path, bool verify) : m_path(path), m_verify(verify) {
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0)
      throw input_error(source_location{path, 0, 0}, "file",
                        fmt::format("cannot open: {}", std::strerror(errno)));
    try {
      load();
    } catch (...) {
      ::close(m_fd);
      throw;
    }
  }
  ~binary_file() { ::close(m_fd); }
  binary_file(const binary_file&) = delete;
  binary_file& operator=(const binary_file&) = delete;

  const std::string& path() const { return m_path; }
  const std::vector<command>& commands() const { return m_commands; }
  const std::vector<std::string>& notes() const { return m_notes; }
  const std::vector<std::uint32_t>& command_kernel() const { return m_command_kernel; }
  const kernel_meta& kernel(std::size_t k) const { return m_kernels[k]; }
  std::size_t block_count() const { return m_blocks.size(); }

  // Decompresses block `n` into `out` after checking its checksum.
  void read_block(std::uint32_t n, std::string& out, std::string& scratch, ZSTD_DCtx* dctx) const {
    const block_entry& b = m_blocks[n];
    std::string key = fmt::format("block {}", n);
    scratch.resize(b.csize);
    read_at(b.offset, scratch.data(), b.csize, key);
    if (m_verify) {
      std::uint64_t c = checksum(scratch.data(), scratch.size());
      if (c != b.sum)
        throw input_error(source_location{m_path, 0, 0}, key + ": checksum",
                          fmt::format("XXH64 0x{:016x} does not match the stored 0x{:016x}: the "
                                      "block is corrupted",
                                      c, b.sum));
    }
    decompress(scratch, b.rsize, out, key, dctx);
  }

  [[noreturn]] void fail(const std::string& field, const std::string& msg) const {
    throw input_error(source_location{m_path, 0, 0}, field, msg);
  }

 private:
  void read_at(std::uint64_t off, char* dst, std::size_t n, const std::string& what) const {
    while (n > 0) {
      ssize_t got = ::pread(m_fd, dst, n, off_t(off));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail(what, fmt::format("read failed: {}", std::strerror(errno)));
      if (got == 0) fail(what, "file ends early (truncated)");
      dst += got;
      n -= std::size_t(got);
      off += std::uint64_t(got);
    }
  }

  void decompress(const std::string& in, std::uint64_t raw_size, std::string& out,
                  const std::string& what, ZSTD_DCtx* dctx = nullptr) const {
    unsigned long long declared = ZSTD_getFrameContentSize(in.data(), in.size());
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN)
      fail(what + ": data", "not a zstd frame (corrupted)");
    if (declared != raw_size)
      fail(what + ": size",
           fmt::format("frame holds {} bytes, the index says {}", declared, raw_size));
    out.resize(raw_size);
    std::size_t n = dctx ? ZSTD_decompressDCtx(dctx, out.data(), out.size(), in.data(), in.size())
                         : ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
    if (ZSTD_isError(n))
      fail(what + ": data", fmt::format("zstd: {} (corrupted)", ZSTD_getErrorName(n)));
    if (n != raw_size)
      fail(what + ": size", fmt::format("decoded {} bytes, expected {}", n, raw_size));
  }

  void load() {
    char h[header_bytes];
    off_t file_size = ::lseek(m_fd, 0, SEEK_END);
    if (file_size < off_t(header_bytes)) fail("header", "file shorter than the 64-byte header");
    read_at(0, h, sizeof h, "header");
    if (std::memcmp(h, magic, sizeof magic) != 0)
      fail("magic", "not a gputlm binary trace (bad magic bytes)");
    unpacker u(h + sizeof magic, header_bytes - sizeof magic, m_path, "header");
    m_version = u.get<std::uint32_t>("format version");
    if (m_version < oldest_format_version || m_version > format_version)
      fail("header: format version",
           fmt::format("version {} is not supported (this build reads versions {} to {}); "
                       "convert the trace again from its text form with `gputlm trace convert`",
                       m_version, oldest_format_version, format_version));
    u.get<std::uint32_t>("flags");
    std::uint64_t dir_off = u.get<std::uint64_t>("directory offset");
    std::uint64_t dir_size = u.get<std::uint64_t>("directory size");
    std::uint64_t dir_raw = u.get<std::uint64_t>("directory raw size");
    std::uint64_t dir_sum = u.get<std::uint64_t>("directory checksum");
    std::uint64_t hdr_sum = u.get<std::uint64_t>("header checksum");
    if (m_verify && checksum(h, 48) != hdr_sum)
      fail("header: checksum", "XXH64 mismatch: the header is corrupted");
    if (dir_off < header_bytes || dir_size > std::uint64_t(file_size) ||
        dir_off > std::uint64_t(file_size) - dir_size || dir_raw > max_block_bytes)
      fail("header: directory", "directory offset/size outside the file (truncated?)");
    std::string comp(dir_size, '\0'), raw;
    read_at(dir_off, comp.data(), comp.size(), "directory");
    if (m_verify && checksum(comp.data(), comp.size()) != dir_sum)
      fail("directory: checksum", "XXH64 mismatch: the directory is corrupted");
    decompress(comp, dir_raw, raw, "directory");
    parse_directory(raw, std::uint64_t(file_size));
  }

  void parse_directory(const std::string& raw, std::uint64_t file_size) {
    unpacker u(raw.data(), raw.size(), m_path, "directory");
    std::uint32_t ncmd = u.get<std::uint32_t>("command count");
    u.need_items(ncmd, 25, "command count");
    for (std::uint32_t i = 0; i < ncmd; ++i) {
      command c;
      std::uint8_t kind = u.get<std::uint8_t>("command kind");
      if (kind > std::uint8_t(command::kind::device_kernel))
        u.fail("command kind", fmt::format("unknown kind {}", kind));
      c.what = command::kind(kind);
      c.addr = u.get<std::uint64_t>("command addr");
      c.bytes = u.get<std::uint64_t>("command bytes");
      c.kernel_file = u.get_str("command kernel file");
      m_command_kernel.push_back(u.get<std::uint32_t>("command kernel index"));
      m_commands.push_back(std::move(c));
    }
    std::uint32_t nk = u.get<std::uint32_t>("kernel count");
    u.need_items(nk, 90, "kernel count");
    m_kernels.resize(nk);
    for (kernel_meta& k : m_kernels) {
      kernel_info& i = k.info;
      i.name = u.get_str("kernel name");
      i.id = u.get<std::uint32_t>("kernel id");
      i.grid = u.get_dim("grid dim");
      i.block = u.get_dim("block dim");
      i.shmem = u.get<std::uint32_t>("shmem");
      i.nregs = u.get<std::uint32_t>("nregs");
      i.binary_version = u.get<std::uint32_t>("binary version");
      i.stream_id = u.get<std::uint64_t>("cuda stream id");
      i.shmem_base = u.get<std::uint64_t>("shmem base_addr");
      i.local_base = u.get<std::uint64_t>("local mem base_addr");
      i.nvbit_version = u.get_str("nvbit version");
      i.tracer_version = u.get<std::uint32_t>("tracer version");
      i.lineinfo = u.get<std::uint8_t>("lineinfo") != 0;
      i.device_launched = u.get<std::uint8_t>("device launched") != 0;
      if (i.grid.x == 0 || i.grid.y == 0 || i.grid.z == 0 || i.grid.count() > (1ull << 32))
        u.fail("grid dim", "each dimension must be >= 1 and the grid at most 2^32 TBs");
      if (i.block.x == 0 || i.block.y == 0 || i.block.z == 0 || i.block.count() > text_max_threads)
        u.fail("block dim", "each dimension must be >= 1, at most 65536 threads");
      std::uint32_t nops = u.get<std::uint32_t>("opcode count");
      if (nops > opcode_table::max_opcodes) u.fail("opcode count", "more than 65536 opcodes");
      u.need_items(nops, 4, "opcode count");
      for (std::uint32_t j = 0; j < nops; ++j) k.mnemonics.push_back(u.get_str("opcode"));
      std::uint64_t ntb = u.get<std::uint64_t>("TB count");
      u.need_items(ntb, 16, "TB count");
      k.tbs.resize(std::size_t(ntb));
      for (tb_entry& t : k.tbs) {
        t.linear_id = u.get<std::uint32_t>("TB linear id");
        t.block = u.get<std::uint32_t>("TB block");
        t.offset = u.get<std::uint32_t>("TB offset");
        t.size = u.get<std::uint32_t>("TB size");
      }
      for (std::size_t j = 0; j < k.tbs.size(); ++j) {
        if (k.tbs[j].linear_id >= i.grid.count())
          u.fail("TB index", fmt::format("TB {} outside the grid", k.tbs[j].linear_id));
        if (j > 0 && k.tbs[j].linear_id <= k.tbs[j - 1].linear_id)
          u.fail("TB index", "entries not sorted by linear id");
      }
    }
    std::uint32_t nb = u.get<std::uint32_t>("block count");
    u.need_items(nb, 24, "block count");
    m_blocks.resize(nb);
    for (block_entry& b : m_blocks) {
      b.offset = u.get<std::uint64_t>("block offset");
      b.csize = u.get<std::uint32_t>("block compressed size");
      b.rsize = u.get<std::uint32_t>("block raw size");
      b.sum = u.get<std::uint64_t>("block checksum");
      if (b.offset < header_bytes || b.offset > file_size || b.csize > file_size - b.offset ||
          b.rsize > max_block_bytes)
        u.fail("block table", "block outside the file (truncated?)");
    }
    if (m_version >= 3) {
      std::uint32_t nn = u.get<std::uint32_t>("note count");
      u.need_items(nn, 4, "note count");
      for (std::uint32_t i = 0; i < nn; ++i) m_notes.push_back(u.get_str("note"));
    }
    if (u.left() != 0) u.fail("end", "trailing bytes");
    for (std::size_t c = 0; c < m_commands.size(); ++c) {
      bool is_kernel = m_commands[c].what != command::kind::memcpy_h2d;
      std::uint32_t k = m_command_kernel[c];
      if (is_kernel ? k >= nk : k != ~0u) u.fail("command kernel index", "out of range");
    }
    for (const kernel_meta& k : m_kernels)
      for (const tb_entry& t : k.tbs)
        if (t.block >= nb || std::uint64_t(t.offset) + t.size > m_blocks[t.block].rsize)
          u.fail("TB index", fmt::format("TB {} outside its block", t.linear_id));
  }

  static constexpr std::uint64_t text_max_threads = 65536;

  std::string m_path;
  bool m_verify;
  int m_fd = -1;
  std::uint32_t m_version = 0;
  std::vector<command> m_commands;
  std::vector<std::string> m_notes;
  std::vector<std::uint32_t> m_command_kernel;
  std::vector<kernel_meta> m_kernels;
  std::vector<block_entry> m_blocks;
};

class binary_kernel_reader final : public kernel_reader {
 public:
  binary_kernel_reader(std::shared_ptr<const binary_file> file, std::size_t k,
                       const open_options& opts)
      : kernel_reader(file->path(), opts), m_file(std::move(file)), m_meta(m_file->kernel(k)) {
    m_info = m_meta.info;
    m_opcodes = opcode_table(m_info.binary_version);
    for (const std::string& m : m_meta.mnemonics) {
      std::size_t before = m_opcodes.size();
      m_opcodes.intern(m);
      if (m_opcodes.size() == before)
        m_file->fail("directory: opcode", fmt::format("'{}' listed twice", m));
    }
    for (std::size_t i = 0; i < m_opcodes.size(); ++i)
      if (!m_opcodes[std::uint16_t(i)].known) {
        if (opts.strict)
          m_file->fail("opcode", fmt::format("unknown opcode '{}' in kernel {}",
                                             m_opcodes[std::uint16_t(i)].mnemonic, m_info.id));
        m_any_unknown = true;
      }
    for (const tb_entry& t : m_meta.tbs) m_last_block = std::max(m_last_block, t.block);
  }
  ~binary_kernel_reader() override {
    stop_thread();
    if (m_next.valid()) m_next.wait();
  }

 protected:
  std::shared_ptr<tb_trace> load_tb(std::uint32_t id) override {
    auto it = std::lower_bound(m_meta.tbs.begin(), m_meta.tbs.end(), id,
                               [](const tb_entry& e, std::uint32_t v) { return e.linear_id < v; });
    if (it == m_meta.tbs.end() || it->linear_id != id)
      m_file->fail("thread block",
                   fmt::format("TB {} of kernel {} is not in the trace", id, m_info.id));
    if (!m_cached || m_cached_block != it->block) {
      m_cached = false;
      fetch_block(it->block);
      load_statics(it->block);
      m_cached = true;
      m_cached_block = it->block;
    }
    if (std::uint64_t(it->offset) + it->size > m_block.size() - m_payload)
      m_file->fail(fmt::format("block {}: TB index", it->block),
                   fmt::format("TB {} lies outside its block", id));
    return decode(m_block.data() + m_payload + it->offset, it->size, id, it->block);
  }

 private:
  // Reads block `b` into m_block. With read-ahead on, the next block of the kernel is then
  // decompressed on a helper thread while this one is decoded (one block of extra memory).
  void fetch_block(std::uint32_t b) {
    bool have = false;
    if (m_next.valid()) {
      if (m_next_block == b) {
        m_next.get();  // rethrows the helper's input_error, if any
        std::swap(m_block, m_next_buf);
        have = true;
      } else {
        try {
          m_next.get();
        } catch (...) {  // a guess nobody asked for
        }
      }
    }
    if (!have) m_file->read_block(b, m_block, m_scratch, m_dctx.get());
    if (m_opts.read_ahead > 0 && b + 1 <= m_last_block) {
      if (!m_dctx2) m_dctx2.reset(ZSTD_createDCtx());
      m_next_block = b + 1;
      // The buffers are members and reused: a fresh 512 KiB string per block would be
      // mapped and faulted in every time.
      m_next = std::async(std::launch::async, [this, n = b + 1] {
        m_file->read_block(n, m_next_buf, m_next_scratch, m_dctx2.get());
      });
    }
  }

  // Builds the block's static instructions, classified, ready to copy.
  void load_statics(std::uint32_t block) {
    unpacker u(m_block.data(), m_block.size(), m_file->path(), fmt::format("block {}", block));
    std::uint32_t n = u.get<std::uint32_t>("static count");
    u.need_items(n, static_record_bytes, "static count");
    m_statics.clear();
    m_statics.reserve(n);
    const std::size_t nops = m_opcodes.size();
    for (std::uint32_t i = 0; i < n; ++i) {
      const char* r = u.pos();
      u.skip(static_record_bytes, "static instruction");
      warp_instruction in;
      std::uint8_t counts;
      std::memcpy(&in.pc, r + 0, 4);
      std::memcpy(&in.line, r + 4, 4);
      std::memcpy(&in.opcode, r + 8, 2);
      std::memcpy(&in.access_size, r + 10, 1);
      std::memcpy(&counts, r + 11, 1);
      std::memcpy(in.dst, r + 12, 4);
      std::memcpy(in.src, r + 16, 8);
      std::memcpy(&in.immediate, r + 24, 4);
      in.num_dst = counts & 15;
      in.num_src = counts >> 4;
      if (in.opcode >= nops || in.num_dst > 2 || in.num_src > 4)
        u.fail("static instruction", fmt::format("bad record {}", i));
      const opcode_info& op = m_opcodes[in.opcode];
      in.unit = op.unit;
      in.space = op.space;
      in.special = op.special;
      in.dir = op.dir;
      m_statics.push_back(in);
    }
    m_payload = std::size_t(u.pos() - m_block.data());
  }

  std::shared_ptr<tb_trace> decode(const char* p, std::size_t n, std::uint32_t id,
                                   std::uint32_t block) {
    const std::string& file = m_file->path();
    unpacker u(p, n, file, fmt::format("block {}", block));
    auto tb = new_tb();
    tb->linear_id = u.get<std::uint32_t>("TB linear id");
    tb->index = u.get_dim("TB index");
    const dim3& g = m_info.grid;
    if (tb->linear_id != id || tb->index.x >= g.x || tb->index.y >= g.y || tb->index.z >= g.z ||
        tb->index.x + std::uint64_t(tb->index.y) * g.x + std::uint64_t(tb->index.z) * g.x * g.y !=
            id)
      u.fail("TB index", fmt::format("record does not hold TB {}", id));
    std::uint32_t nw = u.get<std::uint32_t>("warp count");
    if (nw > 2048) u.fail("warp count", fmt::format("{} warps (at most 2048)", nw));
    tb->warps.resize(nw);
    std::vector<std::uint64_t> scratch;
    const std::uint32_t nstatic = std::uint32_t(m_statics.size());
    const warp_instruction* statics = m_statics.data();
    for (warp_trace& w : tb->warps) {
      std::uint32_t ni = u.get<std::uint32_t>("instruction count");
      std::uint32_t nslots = u.get<std::uint32_t>("address count");
      std::uint32_t abytes = u.get<std::uint32_t>("address bytes");
      std::uint32_t next = u.get<std::uint32_t>("ext count");
      std::uint32_t nl = u.get<std::uint32_t>("launch count");
      u.need_items(ni, inst_record_bytes, "instruction count");
      const char* r = u.pos();
      u.skip(std::size_t(ni) * inst_record_bytes, "instructions");
      const char* a = u.pos();
      const char* const a_end = a + abytes;
      u.skip(abytes, "addresses");
      if (nslots > 32ull * ni)
        u.fail("address count", fmt::format("{} addresses for {} instructions", nslots, ni));
      u.need_items(next, 4, "ext count");
      const char* x = u.pos();
      u.skip(std::size_t(next) * 4, "ext values");
      u.need_items(nl, launch_record_bytes, "launch count");
      const char* l = u.pos();
      u.skip(std::size_t(nl) * launch_record_bytes, "launches");

      w.insts.reserve(ni);
      // Decoded into `scratch`, then kept in the forms set_addresses() makes (a list can
      // become half-strided: fewer entries than the file's).
      if (scratch.size() < nslots) scratch.resize(nslots);
      std::uint64_t* out = scratch.data();
      std::uint32_t slot_at = 0, mem_at = 0, ext_at = 0, launch_at = 0;
      auto bad = [&](std::uint32_t i, const char* what) {
        u.fail("instruction", fmt::format("record {} of a warp in TB {}: {}", i, id, what));
      };
      for (std::uint32_t i = 0; i < ni; ++i, r += inst_record_bytes) {
        std::uint32_t si, mask;
        std::uint8_t flags, space;
        std::memcpy(&si, r + 0, 4);
        std::memcpy(&mask, r + 4, 4);
        std::memcpy(&flags, r + 8, 1);
        std::memcpy(&space, r + 9, 1);
        if (si >= nstatic || space > std::uint8_t(mem_space::texture) || flags > flags_known ||
            (flags & form_mask) == 3)
          bad(i, "bad field value");
        w.insts.push_back(statics[si]);
        warp_instruction& in = w.insts.back();
        in.active_mask = mask;
        in.space = mem_space(space);
        const std::uint8_t form = flags & form_mask;
        if (form != 0) {
          const std::uint32_t lanes = lane_count(mask);
          const unsigned bytes = 1u << ((flags >> width_shift) & 3);
          const std::uint32_t slots = form == form_stride ? 1 : lanes;
          if (form == form_stride && (lanes < 2 || bytes > 4))
            bad(i, "stride form needs at least 2 lanes and a stride of at most 4 bytes");
          if (slots > nslots - slot_at) bad(i, "more addresses than the warp's address count");
          const std::size_t need = 8 + (form == form_stride ? bytes
                                        : lanes             ? std::size_t(lanes - 1) * bytes
                                                            : 0);
          if (std::size_t(a_end - a) < need) bad(i, "address stream too short");
          in.addr_index = mem_at;
          std::uint64_t base;
          std::memcpy(&base, a, 8);
          a += 8;
          std::uint64_t* o = out + mem_at;
          auto get_signed = [bytes](const char* q) -> std::uint64_t {
            switch (bytes) {
              case 1: {
                std::int8_t v;
                std::memcpy(&v, q, 1);
                return std::uint64_t(v);
              }
              case 2: {
                std::int16_t v;
                std::memcpy(&v, q, 2);
                return std::uint64_t(v);
              }
              case 4: {
                std::int32_t v;
                std::memcpy(&v, q, 4);
                return std::uint64_t(v);
              }
              default: {
                std::uint64_t v;
                std::memcpy(&v, q, 8);
                return v;
              }
            }
          };
          if (form == form_stride) {
            in.addr_form = address_form::strided;
            in.addr_stride = std::int32_t(get_signed(a));  // bytes <= 4: in range
            a += bytes;
            o[0] = base;
            mem_at += 1;
          } else if (lanes > 0) {
            o[0] = base;
            for (std::uint32_t k = 1; k < lanes; ++k, a += bytes) {
              base += get_signed(a);
              o[k] = base;
            }
            std::uint64_t packed[3];
            std::int32_t stride;
            in.addr_form = compact_addresses(o, lanes, packed, stride);
            in.addr_stride = stride;
            const std::uint32_t kept = address_slots(in);
            if (in.addr_form != address_form::list) std::copy(packed, packed + kept, o);
            mem_at += kept;
          }
          slot_at += slots;
        } else if (in.access_size != 0) {
          bad(i, "memory instruction without addresses");
        }
        if (flags & flag_launch) {
          if (launch_at >= nl) bad(i, "more launches than the warp's launch count");
          in.ext_index = launch_at++;
        } else if (flags & flag_ext) {
          if (ext_at >= next) bad(i, "more ext values than the warp's ext count");
          std::memcpy(&in.ext_index, x + 4 * std::size_t(ext_at++), 4);
        }
        if (m_any_unknown && !m_opcodes[in.opcode].known)
          note_unknown(in.opcode, source_location{file, 0, 0});
      }
      if (slot_at != nslots || a != a_end || ext_at != next || launch_at != nl)
        u.fail("warp", fmt::format("stream lengths in TB {} disagree with the records", id));
      w.addresses.assign(out, out + mem_at);
      w.launches.resize(nl);
      for (device_launch& dl : w.launches) {
        std::memcpy(&dl.child_kernel, l + 0, 4);
        std::memcpy(&dl.grid, l + 4, 12);
        std::memcpy(&dl.block, l + 16, 12);
        std::memcpy(&dl.shmem, l + 28, 4);
        std::memcpy(&dl.param_addr, l + 32, 8);
        l += launch_record_bytes;
      }
    }
    if (u.left() != 0) u.fail("TB", fmt::format("{} bytes after TB {}", u.left(), id));
    return tb;
  }

  std::shared_ptr<const binary_file> m_file;
  const kernel_meta& m_meta;
  bool m_any_unknown = false;
  bool m_cached = false;
  std::uint32_t m_cached_block = 0;
  std::string m_block, m_scratch;
  std::vector<warp_instruction> m_statics;  // of the cached block
  std::size_t m_payload = 0;                // offset of the cached block's TB records
  std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> m_dctx{ZSTD_createDCtx(), &ZSTD_freeDCtx};
  std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> m_dctx2{nullptr, &ZSTD_freeDCtx};
  std::uint32_t m_last_block = 0;  // the kernel's blocks are m_meta.tbs' block range
  std::uint32_t m_next_block = 0;
  std::string m_next_buf, m_next_scratch;  // the helper's; touched by us only after get()
  std::future<void> m_next;  // declared last: joined before the buffers and contexts go
};

class binary_application final : public application_trace {
 public:
  binary_application(const std::string& path, const open_options& opts)
      : application_trace(path, format::binary, opts),
        m_file(std::make_shared<binary_file>(path, opts.verify_checksums)) {
    m_commands = m_file->commands();
    m_notes = m_file->notes();
  }

 protected:
  std::unique_ptr<kernel_reader> open_kernel(std::size_t i) override {
    return std::make_unique<binary_kernel_reader>(m_file, m_file->command_kernel()[i], m_opts);
  }

 private:
  std::shared_ptr<const binary_file> m_file;
};

}  // namespace

std::unique_ptr<application_trace> open_binary_trace(const std::string& path,
                                                     const open_options& opts) {
  return std::make_unique<binary_application>(path, opts);
}

std::unique_ptr<trace_writer> make_binary_writer(const std::string& file) {
  return std::make_unique<binary_writer>(file);
}

}  // namespace gputlm::traces
