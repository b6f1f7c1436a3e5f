// Accel-Sim text trace lines: formatting and parsing (see text_format.h, docs/traces.md).
#include "traces/text_format.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>

namespace gputlm::traces::text {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

void put_hex(std::string& out, std::uint64_t v, int width = 0) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  for (int n = int(r.ptr - buf); n < width; ++n) out.push_back('0');
  out.append(buf, r.ptr);
}

template <typename T>
void put_dec(std::string& out, T v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void put_dims(std::string& out, const dim3& d) {
  put_dec(out, d.x);
  out.push_back(',');
  put_dec(out, d.y);
  out.push_back(',');
  put_dec(out, d.z);
}

bool dec_u64(std::string_view t, std::uint64_t& v) {
  if (t.empty() || t.size() > 20) return false;
  std::uint64_t r = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;
    std::uint64_t d = std::uint64_t(c - '0');
    if (r > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return false;
    r = r * 10 + d;
  }
  v = r;
  return true;
}

bool dec_i64(std::string_view t, std::int64_t& v) {
  bool neg = !t.empty() && t[0] == '-';
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
  std::uint64_t m;
  if (!dec_u64(t, m)) return false;
  if (neg ? m > std::uint64_t(std::numeric_limits<std::int64_t>::max()) + 1
          : m > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    return false;
  v = neg ? std::int64_t(0 - m) : std::int64_t(m);
  return true;
}

// Hex with optional 0x; fails on an empty or non-hex token or more than 64 bits.
bool hex_u64(std::string_view t, std::uint64_t& v) {
  if (t.size() >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  if (t.empty()) return false;
  std::uint64_t r = 0;
  for (char c : t) {
    unsigned d;
    if (c >= '0' && c <= '9')
      d = unsigned(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = unsigned(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = unsigned(c - 'A' + 10);
    else
      return false;
    if (r >> 60) return false;
    r = (r << 4) | d;
  }
  v = r;
  return true;
}

bool parse_dims(std::string_view s, dim3& d) {
  s = trim(s);
  if (!s.empty() && s.front() == '(') {
    if (s.back() != ')') return false;
    s = s.substr(1, s.size() - 2);
  }
  std::uint32_t v[3];
  for (int i = 0; i < 3; ++i) {
    std::size_t comma = s.find(',');
    if ((i < 2) != (comma != std::string_view::npos)) return false;
    std::uint64_t x;
    if (!dec_u64(trim(s.substr(0, comma)), x) || x == 0 || x > 0xffffffffu) return false;
    v[i] = std::uint32_t(x);
    if (i < 2) s = s.substr(comma + 1);
  }
  d = dim3{v[0], v[1], v[2]};
  return true;
}

// Splits one line into whitespace-separated tokens, remembering columns for messages.
class cursor {
 public:
  explicit cursor(std::string_view line)
      : m_begin(line.data()), m_p(line.data()), m_end(line.data() + line.size()) {}
  std::string_view next() {
    while (m_p < m_end && is_space(*m_p)) ++m_p;
    const char* start = m_p;
    while (m_p < m_end && !is_space(*m_p)) ++m_p;
    return std::string_view(start, std::size_t(m_p - start));
  }
  std::uint64_t column(std::string_view tok) const {
    return std::uint64_t(tok.data() - m_begin) + 1;
  }

 private:
  const char* m_begin;
  const char* m_p;
  const char* m_end;
};

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// ---------------------------------------------------------------- writing

void format_header(std::string& out, const kernel_info& k) {
  out += "-kernel name = " + k.name + "\n";
  out += fmt::format("-kernel id = {}\n", k.id);
  out += fmt::format("-grid dim = ({},{},{})\n", k.grid.x, k.grid.y, k.grid.z);
  out += fmt::format("-block dim = ({},{},{})\n", k.block.x, k.block.y, k.block.z);
  out += fmt::format("-shmem = {}\n", k.shmem);
  out += fmt::format("-nregs = {}\n", k.nregs);
  out += fmt::format("-binary version = {}\n", k.binary_version);
  out += fmt::format("-cuda stream id = {}\n", k.stream_id);
  out += fmt::format("-shmem base_addr = 0x{:016x}\n", k.shmem_base);
  out += fmt::format("-local mem base_addr = 0x{:016x}\n", k.local_base);
  if (!k.nvbit_version.empty()) out += "-nvbit version = " + k.nvbit_version + "\n";
  out += fmt::format("-accelsim tracer version = {}\n", k.tracer_version ? k.tracer_version : 3);
  out += fmt::format("-enable lineinfo = {}\n", k.lineinfo ? 1 : 0);
  out += "\n";
  out += format_comment;
  out += "\n\n";
}

void format_instruction(std::string& out, const warp_instruction& in, const warp_trace& w,
                        const opcode_table& ops, const kernel_info& k) {
  if (in.opcode >= ops.size())
    throw std::logic_error(fmt::format("instruction opcode id {} outside the opcode table ({})",
                                       in.opcode, ops.size()));
  if (k.lineinfo) {
    put_dec(out, in.line);
    out.push_back(' ');
  }
  put_hex(out, in.pc, 4);
  out.push_back(' ');
  put_hex(out, in.active_mask, 8);
  out.push_back(' ');
  int nd = in.num_dst > 2 ? 2 : in.num_dst;
  put_dec(out, nd);
  for (int i = 0; i < nd; ++i) {
    out += " R";
    put_dec(out, in.dst[i]);
  }
  out.push_back(' ');
  out += ops[in.opcode].mnemonic;
  out.push_back(' ');
  int ns = in.num_src > 4 ? 4 : in.num_src;
  put_dec(out, ns);
  for (int i = 0; i < ns; ++i) {
    out += " R";
    put_dec(out, in.src[i]);
  }
  out.push_back(' ');
  bool memory = in.access_size > 0 && in.addr_index != warp_instruction::none;
  if (!memory) {
    out.push_back('0');
  } else {
    put_dec(out, unsigned(in.access_size));
    if (std::size_t(in.addr_index) + address_slots(in) > w.addresses.size())
      throw std::logic_error("instruction addresses outside warp_trace::addresses");
    std::uint64_t a[32] = {};  // (zeroed: GCC cannot see that expand_addresses fills n entries)
    const int n = int(expand_addresses(w, in, a));
    // Mode 1 only for contiguous masks: Accel-Sim's reader asserts that.
    std::uint32_t shifted = n ? in.active_mask >> __builtin_ctz(in.active_mask) : 0;
    bool contiguous = n > 0 && (shifted & (shifted + 1)) == 0;
    bool strided = contiguous;
    std::int64_t stride = n > 1 ? std::int64_t(a[1] - a[0]) : 0;
    if (in.addr_form != address_form::strided)
      for (int i = 1; strided && i < n; ++i) strided = std::int64_t(a[i] - a[i - 1]) == stride;
    if (stride < std::numeric_limits<std::int32_t>::min() ||
        stride > std::numeric_limits<std::int32_t>::max())
      strided = false;
    if (n == 0) {
      out += " 0";
    } else if (strided) {
      out += " 1 0x";
      put_hex(out, a[0]);
      out.push_back(' ');
      put_dec(out, stride);
    } else {
      out += " 2 0x";
      put_hex(out, a[0]);
      for (int i = 1; i < n; ++i) {
        out.push_back(' ');
        put_dec(out, std::int64_t(a[i] - a[i - 1]));
      }
    }
  }
  if (k.tracer_version >= 5) {
    out.push_back(' ');
    put_dec(out, in.immediate);
  }
  if ((in.special == special_op::launch_kernel || in.special == special_op::launch_agg_group) &&
      in.ext_index != warp_instruction::none) {
    if (in.ext_index >= w.launches.size())
      throw std::logic_error("instruction launch index outside warp_trace::launches");
    const device_launch& l = w.launches[in.ext_index];
    out += " kernel=";
    put_dec(out, l.child_kernel);
    out += " grid=";
    put_dims(out, l.grid);
    out += " block=";
    put_dims(out, l.block);
    out += " shmem=";
    put_dec(out, l.shmem);
    out += " param=0x";
    put_hex(out, l.param_addr);
  } else if ((in.special == special_op::cb_push || in.special == special_op::cb_pop) &&
             in.ext_index != warp_instruction::none) {
    out += " bytes=";
    put_dec(out, in.ext_index);
  } else if (in.space == mem_space::global && in.ext_index != warp_instruction::none) {
    out += " flag=";
    put_dec(out, in.ext_index);
  }
  out.push_back('\n');
}

void format_tb(std::string& out, const tb_trace& tb, const opcode_table& ops,
               const kernel_info& k) {
  out += "#BEGIN_TB\n\nthread block = ";
  put_dims(out, tb.index);
  out += "\n\n";
  for (std::size_t w = 0; w < tb.warps.size(); ++w) {
    const warp_trace& wt = tb.warps[w];
    out += "warp = ";
    put_dec(out, w);
    out += "\ninsts = ";
    put_dec(out, wt.insts.size());
    out.push_back('\n');
    for (const warp_instruction& in : wt.insts) format_instruction(out, in, wt, ops, k);
    out.push_back('\n');
  }
  out += "#END_TB\n\n";
}

// ---------------------------------------------------------------- header

void parse_header_line(std::string_view line, kernel_info& k, const source_location& where) {
  line = trim(line);
  if (!line.empty() && line[0] == '-') line.remove_prefix(1);
  std::size_t eq = line.find('=');
  if (eq == std::string_view::npos)
    throw input_error(where, "header", "expected `-<key> = <value>`");
  std::string key(trim(line.substr(0, eq)));
  std::string_view value = trim(line.substr(eq + 1));
  auto bad = [&](const char* what) {
    throw input_error(where, key, fmt::format("expected {}, got '{}'", what, value));
  };
  auto u32 = [&](std::uint32_t& out) {
    std::uint64_t v;
    if (!dec_u64(value, v) || v > 0xffffffffu) bad("a decimal number below 2^32");
    out = std::uint32_t(v);
  };
  auto hex = [&](std::uint64_t& out) {
    if (!hex_u64(value, out)) bad("a hexadecimal address");
  };
  if (key == "kernel name") {
    k.name = std::string(value);
  } else if (key == "kernel id") {
    u32(k.id);
  } else if (key == "grid dim") {
    if (!parse_dims(value, k.grid)) bad("(x,y,z) with each dimension >= 1");
  } else if (key == "block dim") {
    if (!parse_dims(value, k.block)) bad("(x,y,z) with each dimension >= 1");
  } else if (key == "shmem") {
    u32(k.shmem);
  } else if (key == "nregs") {
    u32(k.nregs);
  } else if (key == "binary version") {
    u32(k.binary_version);
  } else if (key == "cuda stream id") {
    if (!dec_u64(value, k.stream_id)) bad("a decimal number");
  } else if (key == "shmem base_addr") {
    hex(k.shmem_base);
  } else if (key == "local mem base_addr") {
    hex(k.local_base);
  } else if (key == "nvbit version") {
    k.nvbit_version = std::string(value);
  } else if (key == "accelsim tracer version") {
    std::string_view major = value.substr(0, value.find('.'));
    std::uint64_t v;
    if (!dec_u64(major, v) || v > 1000) bad("a version number");
    k.tracer_version = std::uint32_t(v);
  } else if (key == "enable lineinfo") {
    if (value == "0")
      k.lineinfo = false;
    else if (value == "1")
      k.lineinfo = true;
    else
      bad("0 or 1");
  }
  // Other keys: newer tracers add some; they do not change the body's syntax.
}

void check_header(const kernel_info& k, const source_location& where) {
  if (k.tracer_version < 3 || k.tracer_version > 5)
    throw input_error(where, "accelsim tracer version",
                      fmt::format("version {} is not supported (3, 4 or 5)", k.tracer_version));
  if (k.grid.count() > (std::uint64_t(1) << 32))
    throw input_error(where, "grid dim", "more than 2^32 thread blocks");
  if (k.block.count() > max_threads_per_tb)
    throw input_error(
        where, "block dim",
        fmt::format("{} threads per block (at most {})", k.block.count(), max_threads_per_tb));
}

dim3 parse_tb_line(std::string_view line, const source_location& where) {
  line = trim(line);
  constexpr std::string_view key = "thread block";
  std::size_t eq = line.find('=');
  if (line.substr(0, key.size()) != key || eq == std::string_view::npos ||
      !trim(line.substr(key.size(), eq - key.size())).empty())
    throw input_error(where, "thread block", "expected `thread block = x,y,z`");
  std::string_view value = trim(line.substr(eq + 1));
  std::uint32_t v[3];
  for (int i = 0; i < 3; ++i) {
    std::size_t comma = value.find(',');
    std::uint64_t x;
    if ((i < 2) != (comma != std::string_view::npos) || !dec_u64(trim(value.substr(0, comma)), x) ||
        x > 0xffffffffu)
      throw input_error(
          where, "thread block",
          fmt::format("expected three decimal indices x,y,z, got '{}'", trim(line.substr(eq + 1))));
    v[i] = std::uint32_t(x);
    if (i < 2) value = value.substr(comma + 1);
  }
  return dim3{v[0], v[1], v[2]};
}

bool parse_count_line(std::string_view line, std::string_view key, std::uint64_t& value,
                      const source_location& where) {
  line = trim(line);
  if (line.substr(0, key.size()) != key) return false;
  std::string_view rest = trim(line.substr(key.size()));
  if (rest.empty() || rest[0] != '=') return false;
  std::string_view v = trim(rest.substr(1));
  if (!dec_u64(v, value))
    throw input_error(where, std::string(key),
                      fmt::format("expected a decimal count, got '{}'", v));
  return true;
}

// ---------------------------------------------------------------- instructions

void instruction_parser::parse(std::string_view line, std::uint64_t line_no, warp_trace& w) {
  cursor c(line);
  auto fail = [&](std::string_view tok, const std::string& field, const std::string& msg) {
    std::uint64_t col = tok.data() ? c.column(tok) : 0;
    throw input_error(source_location{m_file, line_no, col}, field, msg);
  };
  auto need = [&](const char* field) {
    std::string_view t = c.next();
    if (t.empty()) fail(t, field, "missing (line ends early)");
    return t;
  };
  auto hex32 = [&](const char* field) {
    std::string_view t = need(field);
    std::uint64_t v = 0;
    if (!hex_u64(t, v)) fail(t, field, fmt::format("bad hex number '{}'", t));
    if (v > 0xffffffffu) fail(t, field, fmt::format("'{}' is wider than 32 bits", t));
    return std::uint32_t(v);
  };
  auto dec = [&](const char* field, std::uint64_t max) {
    std::string_view t = need(field);
    std::uint64_t v = 0;
    if (!dec_u64(t, v)) fail(t, field, fmt::format("bad decimal number '{}'", t));
    if (v > max) fail(t, field, fmt::format("{} is larger than {}", v, max));
    return v;
  };
  auto reg = [&](const char* field) {
    std::string_view t = need(field);
    std::uint64_t v = 0;
    if (t.size() < 2 || t[0] != 'R' || !dec_u64(t.substr(1), v) || v > 0xffff)
      fail(t, field, fmt::format("expected a register R<n>, got '{}'", t));
    return std::uint16_t(v);
  };

  warp_instruction in;
  if (m_info.lineinfo) in.line = std::uint32_t(dec("line number", 0xffffffffu));
  in.pc = hex32("PC");
  in.active_mask = hex32("active mask");

  std::uint64_t nd = dec("dest_num", 4);
  in.num_dst = std::uint8_t(nd > 2 ? 2 : nd);
  for (std::uint64_t i = 0; i < nd; ++i) {
    std::uint16_t r = reg("destination register");
    if (i < 2) in.dst[i] = r;
  }

  std::string_view mnemonic = need("opcode");
  std::uint16_t id;
  if (!m_ops.find(mnemonic, id)) {
    if (m_ops.size() >= opcode_table::max_opcodes)
      fail(mnemonic, "opcode", "more than 65536 distinct opcodes in one kernel");
    id = m_ops.intern(mnemonic);
  }
  const opcode_info& op = m_ops[id];
  if (!op.known) {
    if (m_strict) fail(mnemonic, "opcode", fmt::format("unknown opcode '{}'", mnemonic));
    if (m_sink) m_sink->unknown(id, source_location{m_file, line_no, c.column(mnemonic)});
  }
  in.opcode = id;
  in.unit = op.unit;
  in.space = op.space;
  in.special = op.special;
  in.dir = op.dir;

  std::uint64_t ns = dec("src_num", 5);
  in.num_src = std::uint8_t(ns > 4 ? 4 : ns);
  for (std::uint64_t i = 0; i < ns; ++i) {
    std::uint16_t r = reg("source register");
    if (i < 4) in.src[i] = r;
  }

  std::uint64_t width = dec("mem_width", 255);
  in.access_size = std::uint8_t(width);
  int mode = -1;
  const int lanes = static_cast<int>(lane_count(in.active_mask));
  if (width > 0) {
    std::string_view mt = need("address mode");
    if (mt.size() != 1 || mt[0] < '0' || mt[0] > '2')
      fail(mt, "address mode", fmt::format("unknown address mode '{}' (0, 1 or 2)", mt));
    mode = mt[0] - '0';
    auto address = [&](const char* field) {
      std::string_view t = c.next();
      if (t.empty())
        fail(t, field,
             fmt::format("fewer addresses than the {} active lanes of mask 0x{:08x}", lanes,
                         in.active_mask));
      std::uint64_t v = 0;
      if (!hex_u64(t, v)) fail(t, field, fmt::format("bad hex address '{}'", t));
      return v;
    };
    auto signed_dec = [&](const char* field) {
      std::string_view t = c.next();
      if (t.empty())
        fail(t, field,
             fmt::format("fewer addresses than the {} active lanes of mask 0x{:08x}", lanes,
                         in.active_mask));
      std::int64_t v = 0;
      if (!dec_i64(t, v)) fail(t, field, fmt::format("bad signed decimal number '{}'", t));
      return v;
    };
    std::uint64_t a[32];
    const auto n = std::uint32_t(lanes);
    if (mode == 0) {
      for (std::uint32_t i = 0; i < n; ++i) a[i] = address("addresses");
      set_addresses(w, in, a, n);
    } else if (mode == 1) {
      std::uint64_t base = address("base address");
      std::int64_t stride = signed_dec("stride");
      if (n >= 2 && stride >= std::numeric_limits<std::int32_t>::min() &&
          stride <= std::numeric_limits<std::int32_t>::max()) {
        set_strided_addresses(w, in, base, std::int32_t(stride));
      } else {
        for (std::uint32_t i = 0; i < n; ++i) a[i] = base + std::uint64_t(stride) * i;
        set_addresses(w, in, a, n);
      }
    } else {
      std::uint64_t v = address("base address");
      if (n > 0) a[0] = v;
      for (std::uint32_t i = 1; i < n; ++i) {
        v += std::uint64_t(signed_dec("address deltas"));
        a[i] = v;
      }
      set_addresses(w, in, a, n);
    }
    if (op.generic && lanes > 0) {
      std::uint64_t a0 = w.addresses[in.addr_index];
      auto in_window = [&](std::uint64_t base) {
        return base != 0 && a0 >= base && a0 - base < generic_window_bytes;
      };
      if (in_window(m_info.shmem_base))
        in.space =
            op.space == mem_space::global_atomic ? mem_space::shared_atomic : mem_space::shared;
      else if (in_window(m_info.local_base))
        in.space = mem_space::local;
    }
  }

  // Remaining tokens: the immediate (tracer 5) and the gputlm key=value extension tokens,
  // canonically after the immediate; the reader accepts them on either side of it.
  bool want_imm = m_info.tracer_version >= 5;
  bool have_imm = false;
  bool have_kernel = false, have_bytes = false;
  device_launch launch;
  const bool is_launch =
      op.special == special_op::launch_kernel || op.special == special_op::launch_agg_group;
  const bool is_cb = op.special == special_op::cb_push || op.special == special_op::cb_pop;
  for (std::string_view t = c.next(); !t.empty(); t = c.next()) {
    std::size_t eq = t.find('=');
    if (eq == std::string_view::npos) {
      if (want_imm && !have_imm) {
        std::int64_t v;
        if (!dec_i64(t, v) || v < std::numeric_limits<std::int32_t>::min() ||
            v > std::numeric_limits<std::int32_t>::max()) {
          if (mode == 0 && t.size() > 1 && t[1] == 'x')
            fail(t, "addresses",
                 fmt::format("more addresses than the {} active lanes of mask "
                             "0x{:08x}",
                             lanes, in.active_mask));
          fail(t, "immediate", fmt::format("expected a 32-bit decimal immediate, got '{}'", t));
        }
        in.immediate = std::int32_t(v);
        have_imm = true;
        continue;
      }
      if (mode == 0)
        fail(t, "addresses",
             fmt::format("more addresses than the {} active lanes of mask 0x{:08x}", lanes,
                         in.active_mask));
      if (mode == 2)
        fail(t, "address deltas",
             fmt::format("more than {} deltas for the {} active lanes of mask 0x{:08x}",
                         lanes > 0 ? lanes - 1 : 0, lanes, in.active_mask));
      fail(t, "instruction", fmt::format("unexpected token '{}' at the end of the line", t));
    }
    std::string key(t.substr(0, eq));
    std::string_view value = t.substr(eq + 1);
    auto num = [&](std::uint64_t max) {
      std::uint64_t v;
      if (!dec_u64(value, v) || v > max)
        fail(t, key, fmt::format("expected a decimal number up to {}, got '{}'", max, value));
      return v;
    };
    if (is_launch) {
      if (key == "kernel") {
        launch.child_kernel = std::uint32_t(num(0xffffffffu));
        have_kernel = true;
      } else if (key == "grid" || key == "block") {
        if (!parse_dims(value, key == "grid" ? launch.grid : launch.block))
          fail(t, key, fmt::format("expected x,y,z with each >= 1, got '{}'", value));
      } else if (key == "shmem") {
        launch.shmem = std::uint32_t(num(0xffffffffu));
      } else if (key == "param") {
        if (!hex_u64(value, launch.param_addr))
          fail(t, key, fmt::format("bad hex number '{}'", value));
      } else {
        fail(t, key, fmt::format("unknown extension key for {}", op.mnemonic));
      }
    } else if (is_cb) {
      if (key != "bytes") fail(t, key, fmt::format("unknown extension key for {}", op.mnemonic));
      in.ext_index = std::uint32_t(num(0xfffffffeu));
      have_bytes = true;
    } else if (in.space == mem_space::global && op.special == special_op::none) {
      // A status word's flag value: a load waits until the word holds it, a store writes it.
      if (key != "flag") fail(t, key, fmt::format("unknown extension key for {}", op.mnemonic));
      in.ext_index = std::uint32_t(num(0xfffffffeu));
    } else {
      fail(t, key, fmt::format("extension token on '{}', which takes none", op.mnemonic));
    }
  }
  if (want_imm && !have_imm) {
    std::string_view end(line.data() + line.size(), 0);
    if (mode >= 0 && lanes > 0)
      fail(end, "immediate", "missing (tracer version 5), or fewer addresses than active lanes");
    fail(end, "immediate", "missing (tracer version 5 ends each line with it)");
  }
  if (is_launch) {
    if (!have_kernel)
      fail(std::string_view(line.data() + line.size(), 0), "kernel",
           fmt::format("{} needs kernel=<id>", op.mnemonic));
    in.ext_index = std::uint32_t(w.launches.size());
    w.launches.push_back(launch);
  } else if (is_cb && !have_bytes) {
    fail(std::string_view(line.data() + line.size(), 0), "bytes",
         fmt::format("{} needs bytes=<n>", op.mnemonic));
  }
  w.insts.push_back(in);
}

}  // namespace gputlm::traces::text
