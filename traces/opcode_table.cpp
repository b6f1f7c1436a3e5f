// SASS opcode classification for trace replay. The root mnemonic picks the functional unit
// and memory space the way Accel-Sim's per-generation opcode maps do (Kepler sm_35,
// Pascal sm_60/61, Volta sm_70; Turing and Ampere use the Volta rules, with their own
// additions available); modifiers give the access size and the gputlm extensions' meaning.
#include "traces/opcode_table.h"

#include <stdexcept>

namespace gputlm::traces {
namespace {

// Generations an opcode exists in.
enum gen : std::uint8_t { kepler = 1, pascal = 2, volta = 4 };
constexpr std::uint8_t all = kepler | pascal | volta;
constexpr std::uint8_t kp = kepler | pascal;
constexpr std::uint8_t pv = pascal | volta;  // Maxwell/Pascal onwards

struct root_entry {
  std::string_view root;
  unit_class unit;
  mem_space space;
  std::uint8_t gens;
};

using u = unit_class;
using m = mem_space;

// Conversions (F2F, F2I, I2F, I2I, FRND) go to the SFU: their throughput is 16/clk/SM on
// Volta, the same as MUFU, not the 64/clk of FP32.
// clang-format off
constexpr root_entry k_roots[] = {
    // FP32
    {"FADD", u::sp, m::none, all}, {"FADD32I", u::sp, m::none, all},
    {"FCHK", u::sp, m::none, pv}, {"FCMP", u::sp, m::none, all},
    {"FFMA", u::sp, m::none, all}, {"FFMA32I", u::sp, m::none, all},
    {"FMNMX", u::sp, m::none, all}, {"FMUL", u::sp, m::none, all},
    {"FMUL32I", u::sp, m::none, all}, {"FSEL", u::sp, m::none, pv},
    {"FSET", u::sp, m::none, all}, {"FSETP", u::sp, m::none, all},
    {"FSWZADD", u::sp, m::none, pv}, {"FSWZ", u::sp, m::none, kepler},
    {"RRO", u::sp, m::none, kp},
    // FP16 pairs (half the initiation interval, still the SP unit)
    {"HADD2", u::sp, m::none, pv}, {"HADD2_32I", u::sp, m::none, pv},
    {"HFMA2", u::sp, m::none, pv}, {"HFMA2_32I", u::sp, m::none, pv},
    {"HMUL2", u::sp, m::none, pv}, {"HMUL2_32I", u::sp, m::none, pv},
    {"HSET2", u::sp, m::none, pv}, {"HSETP2", u::sp, m::none, pv},
    {"HMNMX2", u::sp, m::none, volta},
    // special functions and conversions
    {"MUFU", u::sfu, m::none, all}, {"F2F", u::sfu, m::none, all},
    {"F2I", u::sfu, m::none, all}, {"I2F", u::sfu, m::none, all},
    {"I2I", u::sfu, m::none, all}, {"FRND", u::sfu, m::none, all},
    {"F2FP", u::sfu, m::none, volta}, {"I2FP", u::sfu, m::none, volta},
    {"F2IP", u::sfu, m::none, volta},
    // FP64
    {"DADD", u::dp, m::none, all}, {"DFMA", u::dp, m::none, all},
    {"DMUL", u::dp, m::none, all}, {"DSETP", u::dp, m::none, all},
    {"DMNMX", u::dp, m::none, kp}, {"DSET", u::dp, m::none, kp},
    // tensor cores
    {"HMMA", u::tensor, m::none, volta}, {"IMMA", u::tensor, m::none, volta},
    {"BMMA", u::tensor, m::none, volta}, {"DMMA", u::tensor, m::none, volta},
    // integer
    {"BFE", u::int_alu, m::none, kp}, {"BFI", u::int_alu, m::none, kp},
    {"BMSK", u::int_alu, m::none, volta}, {"BREV", u::int_alu, m::none, all},
    {"FLO", u::int_alu, m::none, all}, {"IABS", u::int_alu, m::none, volta},
    {"IADD", u::int_alu, m::none, all}, {"IADD3", u::int_alu, m::none, pv},
    {"IADD32I", u::int_alu, m::none, all}, {"ICMP", u::int_alu, m::none, all},
    {"IDP", u::int_alu, m::none, volta}, {"IDP4A", u::int_alu, m::none, volta},
    {"IMAD", u::int_alu, m::none, all}, {"IMAD32I", u::int_alu, m::none, kepler},
    {"IMADSP", u::int_alu, m::none, kp}, {"IMNMX", u::int_alu, m::none, all},
    {"IMUL", u::int_alu, m::none, all}, {"IMUL32I", u::int_alu, m::none, all},
    {"ISAD", u::int_alu, m::none, kepler}, {"ISCADD", u::int_alu, m::none, all},
    {"ISCADD32I", u::int_alu, m::none, all}, {"ISET", u::int_alu, m::none, kp},
    {"ISETP", u::int_alu, m::none, all}, {"LEA", u::int_alu, m::none, pv},
    {"LOP", u::int_alu, m::none, all}, {"LOP3", u::int_alu, m::none, pv},
    {"LOP32I", u::int_alu, m::none, all}, {"POPC", u::int_alu, m::none, all},
    {"SHF", u::int_alu, m::none, all}, {"SHL", u::int_alu, m::none, kp},
    {"SHR", u::int_alu, m::none, all}, {"XMAD", u::int_alu, m::none, pascal},
    {"VABSDIFF", u::int_alu, m::none, all}, {"VABSDIFF4", u::int_alu, m::none, volta},
    {"VADD", u::int_alu, m::none, kp}, {"VMAD", u::int_alu, m::none, kp},
    {"VMNMX", u::int_alu, m::none, all}, {"VSET", u::int_alu, m::none, kp},
    {"VSETP", u::int_alu, m::none, all}, {"PRMT", u::int_alu, m::none, all},
    {"SEL", u::int_alu, m::none, all}, {"SGXT", u::int_alu, m::none, volta},
    {"MOV", u::int_alu, m::none, all}, {"MOV32I", u::int_alu, m::none, all},
    {"SHFL", u::int_alu, m::none, all}, {"VOTE", u::int_alu, m::none, all},
    {"VOTEU", u::int_alu, m::none, volta}, {"P2R", u::int_alu, m::none, all},
    {"R2P", u::int_alu, m::none, all}, {"PSET", u::int_alu, m::none, kp},
    {"PSETP", u::int_alu, m::none, all}, {"PLOP3", u::int_alu, m::none, volta},
    {"CSET", u::int_alu, m::none, kp}, {"CSETP", u::int_alu, m::none, kp},
    {"MATCH", u::int_alu, m::none, volta}, {"REDUX", u::int_alu, m::none, volta},
    // uniform datapath (Turing onwards)
    {"UIADD3", u::int_alu, m::none, volta}, {"UIMAD", u::int_alu, m::none, volta},
    {"UMOV", u::int_alu, m::none, volta}, {"ULOP", u::int_alu, m::none, volta},
    {"ULOP3", u::int_alu, m::none, volta}, {"ULOP32I", u::int_alu, m::none, volta},
    {"USHF", u::int_alu, m::none, volta}, {"USHL", u::int_alu, m::none, volta},
    {"USHR", u::int_alu, m::none, volta}, {"USEL", u::int_alu, m::none, volta},
    {"UISETP", u::int_alu, m::none, volta}, {"UFLO", u::int_alu, m::none, volta},
    {"UPOPC", u::int_alu, m::none, volta}, {"UBMSK", u::int_alu, m::none, volta},
    {"UBREV", u::int_alu, m::none, volta}, {"UPRMT", u::int_alu, m::none, volta},
    {"ULEA", u::int_alu, m::none, volta}, {"USGXT", u::int_alu, m::none, volta},
    {"UP2UR", u::int_alu, m::none, volta}, {"UR2UP", u::int_alu, m::none, volta},
    {"UPLOP3", u::int_alu, m::none, volta}, {"UPSETP", u::int_alu, m::none, volta},
    {"R2UR", u::int_alu, m::none, volta},
    // issue slot only
    {"NOP", u::other, m::none, all}, {"S2R", u::other, m::none, all},
    {"S2UR", u::other, m::none, volta}, {"CS2R", u::other, m::none, volta},
    {"B2R", u::other, m::none, kp}, {"R2B", u::other, m::none, kp},
    {"LEPC", u::other, m::none, pv}, {"PMTRIG", u::other, m::none, all},
    {"GETLMEMBASE", u::other, m::none, volta}, {"SETLMEMBASE", u::other, m::none, volta},
    {"DEPBAR", u::other, m::none, all}, {"TEXDEPBAR", u::other, m::none, kp}, {"ERRBAR", u::other, m::none, volta},
    {"NANOSLEEP", u::other, m::none, volta}, {"YIELD", u::other, m::none, volta},
    {"BPT", u::other, m::none, all}, {"SUQUERY", u::other, m::none, volta},
    {"LDGDEPBAR", u::other, m::none, volta}, {"ARRIVES", u::other, m::none, volta},
    {"GETCRSPTR", u::other, m::none, volta}, {"SETCRSPTR", u::other, m::none, volta},
    // memory
    {"LDG", u::ldst, m::global, all}, {"STG", u::ldst, m::global, all},
    {"LD", u::ldst, m::global, all}, {"ST", u::ldst, m::global, all},
    {"LDL", u::ldst, m::local, all}, {"STL", u::ldst, m::local, all},
    {"LDS", u::ldst, m::shared, all}, {"STS", u::ldst, m::shared, all},
    {"LDSLK", u::ldst, m::shared, kepler}, {"STSCUL", u::ldst, m::shared, kepler},
    {"STSUL", u::ldst, m::shared, kepler}, {"LDSM", u::ldst, m::shared, volta},
    {"LDC", u::ldst, m::constant, all}, {"ULDC", u::ldst, m::constant, volta},
    {"ATOM", u::ldst, m::global_atomic, all}, {"ATOMG", u::ldst, m::global_atomic, volta},
    {"RED", u::ldst, m::global_atomic, all}, {"ATOMS", u::ldst, m::shared_atomic, pv},
    {"CCTL", u::ldst, m::global, all}, {"CCTLL", u::ldst, m::local, pv},
    {"LDGSTS", u::ldst, m::global, volta},
    {"SULD", u::ldst, m::global, all}, {"SUST", u::ldst, m::global, all},
    {"SURED", u::ldst, m::global_atomic, all}, {"SUATOM", u::ldst, m::global_atomic, all},
    {"MEMBAR", u::barrier, m::none, all},
    // texture
    {"TEX", u::texture, m::texture, all}, {"TLD", u::texture, m::texture, all},
    {"TLD4", u::texture, m::texture, all}, {"TXQ", u::texture, m::texture, all},
    {"TXD", u::texture, m::texture, all}, {"TMML", u::texture, m::texture, all},
    {"TEXS", u::texture, m::texture, pv}, {"TLDS", u::texture, m::texture, pv},
    {"TLD4S", u::texture, m::texture, pv},
    // control flow
    {"BRA", u::branch, m::none, all}, {"BRX", u::branch, m::none, all},
    {"JMP", u::branch, m::none, all}, {"JMX", u::branch, m::none, all},
    {"CAL", u::branch, m::none, kp}, {"JCAL", u::branch, m::none, kp},
    {"CALL", u::branch, m::none, volta}, {"RET", u::branch, m::none, all},
    {"SYNC", u::branch, m::none, kp}, {"SSY", u::branch, m::none, kp},
    {"PBK", u::branch, m::none, kp}, {"BRK", u::branch, m::none, kp},
    {"CONT", u::branch, m::none, kp}, {"PCNT", u::branch, m::none, kp},
    {"PRET", u::branch, m::none, kp}, {"PLONGJMP", u::branch, m::none, kp},
    {"LONGJMP", u::branch, m::none, kp}, {"BSSY", u::branch, m::none, volta},
    {"BSYNC", u::branch, m::none, volta}, {"BREAK", u::branch, m::none, volta},
    {"BMOV", u::branch, m::none, volta}, {"KILL", u::branch, m::none, volta},
    {"KIL", u::branch, m::none, kp}, {"RTT", u::branch, m::none, volta},
    // barriers and exit
    {"BAR", u::barrier, m::none, all}, {"WARPSYNC", u::barrier, m::none, volta},
    {"EXIT", u::exit, m::none, all},
};
// clang-format on

std::uint8_t generation(std::uint32_t binary_version) {
  if (binary_version == 0 || binary_version >= 70) return volta;
  if (binary_version >= 50) return pascal;
  return kepler;
}

const root_entry* find_root(std::string_view root) {
  // A linear scan runs once per distinct mnemonic per kernel (opcode_table caches it).
  for (const root_entry& e : k_roots)
    if (e.root == root) return &e;
  return nullptr;
}

// Splits "LDG.E.128.SYS" into root "LDG" and modifiers {"E","128","SYS"}.
struct split_mnemonic {
  std::string_view root;
  std::vector<std::string_view> mods;
  bool has(std::string_view mod) const {
    for (auto x : mods)
      if (x == mod) return true;
    return false;
  }
};

split_mnemonic split(std::string_view s) {
  split_mnemonic r;
  std::size_t dot = s.find('.');
  r.root = s.substr(0, dot);
  while (dot != std::string_view::npos) {
    std::size_t next = s.find('.', dot + 1);
    r.mods.push_back(s.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1));
    dot = next;
  }
  return r;
}

direction parse_direction(std::string_view mod) {
  if (mod == "NORTH") return direction::north;
  if (mod == "SOUTH") return direction::south;
  if (mod == "EAST") return direction::east;
  if (mod == "WEST") return direction::west;
  return direction::none;
}

std::uint8_t access_size_from(const split_mnemonic& sm) {
  std::uint8_t size = 4;
  for (auto mod : sm.mods) {
    if (mod == "128")
      size = 16;
    else if (mod == "64")
      size = 8;
    else if (mod == "32")
      size = 4;
    else if (mod == "U8" || mod == "S8")
      size = 1;
    else if (mod == "U16" || mod == "S16")
      size = 2;
  }
  return size;
}

// The gputlm pseudo-opcodes (docs/traces.md, "Extensions"). Returns false if `sm` is not one.
bool classify_extension(const split_mnemonic& sm, opcode_info& info) {
  if (sm.root == "CDP" || sm.root == "DTBL") {
    // CDP.LAUNCH, DTBL.LAUNCH; CDP.SYNC (cudaDeviceSynchronize: DTBL has no parent-child sync)
    const bool cdp = sm.root == "CDP";
    const bool sync = cdp && sm.mods.size() == 1 && sm.mods[0] == "SYNC";
    info.unit = unit_class::branch;
    info.special = sync  ? special_op::device_sync
                   : cdp ? special_op::launch_kernel
                         : special_op::launch_agg_group;
    info.known = sm.mods.size() == 1 && (sm.mods[0] == "LAUNCH" || sync);
    return true;
  }
  if (sm.root == "CB") {
    info.unit = unit_class::ldst;
    info.space = mem_space::none;
    bool push = !sm.mods.empty() && sm.mods[0] == "PUSH";
    bool pop = !sm.mods.empty() && sm.mods[0] == "POP";
    info.special = push ? special_op::cb_push : pop ? special_op::cb_pop : special_op::none;
    info.dir = sm.mods.size() == 2 ? parse_direction(sm.mods[1]) : direction::none;
    info.known = (push || pop) && info.dir != direction::none;
    return true;
  }
  if (sm.root == "BAR" && !sm.mods.empty() && sm.mods[0] == "BLOCKSYNC") {
    info.unit = unit_class::barrier;
    info.special = special_op::block_sync;
    info.dir = sm.mods.size() == 1 ? direction::global : parse_direction(sm.mods[1]);
    info.known = sm.mods.size() <= 2 && info.dir != direction::none;
    return true;
  }
  return false;
}

}  // namespace

opcode_info classify_opcode(std::string_view mnemonic, std::uint32_t binary_version) {
  opcode_info info;
  info.mnemonic = std::string(mnemonic);
  split_mnemonic sm = split(mnemonic);
  if (classify_extension(sm, info)) {
    if (!info.known) {
      info.unit = unit_class::other;
      info.space = mem_space::none;
      info.special = special_op::none;
      info.dir = direction::none;
    }
    return info;
  }
  const root_entry* e = find_root(sm.root);
  if (e == nullptr || (e->gens & generation(binary_version)) == 0) {
    info.known = false;
    return info;
  }
  info.unit = e->unit;
  info.space = e->space;
  // Before Volta, ATOM is the global atomic; from Volta on it is generic (ATOMG/ATOMS are
  // explicit). The reader resolves generic accesses against the header's windows.
  info.generic = sm.root == "LD" || sm.root == "ST" ||
                 (sm.root == "ATOM" && generation(binary_version) == volta);
  if (info.space != mem_space::none && info.space != mem_space::texture)
    info.default_access_size = access_size_from(sm);
  if (sm.root == "CCTL" || sm.root == "CCTLL") info.default_access_size = 0;
  if (info.space == mem_space::texture) info.default_access_size = 4;

  if (sm.root == "BAR")
    info.special = sm.has("ARV") ? special_op::none : special_op::bar_sync;
  else if (sm.root == "EXIT")
    info.special = special_op::exit;
  else if (sm.root == "MEMBAR")
    info.special = special_op::membar;
  return info;
}

const char* to_string(unit_class v) {
  switch (v) {
    case unit_class::sp:
      return "sp";
    case unit_class::sfu:
      return "sfu";
    case unit_class::int_alu:
      return "int";
    case unit_class::dp:
      return "dp";
    case unit_class::tensor:
      return "tensor";
    case unit_class::ldst:
      return "ldst";
    case unit_class::branch:
      return "branch";
    case unit_class::barrier:
      return "barrier";
    case unit_class::exit:
      return "exit";
    case unit_class::texture:
      return "texture";
    case unit_class::other:
      return "other";
  }
  return "?";
}

const char* to_string(mem_space v) {
  switch (v) {
    case mem_space::none:
      return "none";
    case mem_space::global:
      return "global";
    case mem_space::local:
      return "local";
    case mem_space::shared:
      return "shared";
    case mem_space::constant:
      return "constant";
    case mem_space::global_atomic:
      return "global_atomic";
    case mem_space::shared_atomic:
      return "shared_atomic";
    case mem_space::texture:
      return "texture";
  }
  return "?";
}

const char* to_string(special_op v) {
  switch (v) {
    case special_op::none:
      return "none";
    case special_op::bar_sync:
      return "bar_sync";
    case special_op::exit:
      return "exit";
    case special_op::membar:
      return "membar";
    case special_op::launch_kernel:
      return "launch_kernel";
    case special_op::launch_agg_group:
      return "launch_agg_group";
    case special_op::cb_push:
      return "cb_push";
    case special_op::cb_pop:
      return "cb_pop";
    case special_op::block_sync:
      return "block_sync";
    case special_op::device_sync:
      return "device_sync";
  }
  return "?";
}

const char* to_string(direction v) {
  switch (v) {
    case direction::none:
      return "none";
    case direction::north:
      return "north";
    case direction::south:
      return "south";
    case direction::east:
      return "east";
    case direction::west:
      return "west";
    case direction::global:
      return "global";
  }
  return "?";
}

opcode_table::opcode_table(const opcode_table& other) : m_binary_version(other.m_binary_version) {
  for (std::size_t i = 0, n = other.size(); i < n; ++i)
    intern(other[static_cast<std::uint16_t>(i)].mnemonic);
}

opcode_table& opcode_table::operator=(const opcode_table& other) {
  if (this == &other) return *this;
  m_binary_version = other.m_binary_version;
  m_ids.clear();
  for (auto& c : m_chunks) c.reset();
  m_size.store(0, std::memory_order_release);
  for (std::size_t i = 0, n = other.size(); i < n; ++i)
    intern(other[static_cast<std::uint16_t>(i)].mnemonic);
  return *this;
}

bool opcode_table::find(std::string_view mnemonic, std::uint16_t& id) const {
  auto it = m_ids.find(mnemonic);
  if (it == m_ids.end()) return false;
  id = it->second;
  return true;
}

std::uint16_t opcode_table::intern(std::string_view mnemonic) {
  auto it = m_ids.find(mnemonic);
  if (it != m_ids.end()) return it->second;
  std::size_t n = m_size.load(std::memory_order_relaxed);
  if (n >= max_opcodes) throw std::length_error("opcode table full (65536 distinct mnemonics)");
  auto& chunk = m_chunks[n >> chunk_bits];
  if (!chunk) chunk = std::make_unique<opcode_info[]>(chunk_size);
  opcode_info& slot = chunk[n & (chunk_size - 1)];
  slot = classify_opcode(mnemonic, m_binary_version);
  auto id = static_cast<std::uint16_t>(n);
  m_ids.emplace(std::string_view(slot.mnemonic), id);
  m_size.store(n + 1, std::memory_order_release);
  return id;
}

}  // namespace gputlm::traces
