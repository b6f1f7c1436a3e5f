#include "models/core/launch_unit.h"

#include <stdexcept>

namespace gputlm::core {

launch_unit::launch_unit(component& owner)
    : m_stream_create(owner, "launch_stream_create", {7165},
                      "CDP: cudaStreamCreateWithFlags per warp (DTBL thesis Table 5)"),
      m_param_buffer(owner, "launch_param_buffer", {8023},
                     "CDP, DTBL: cudaGetParameterBuffer per warp, b of A*x + b (Table 5)"),
      m_param_buffer_per_thread(owner, "launch_param_buffer_per_thread", {129},
                                "CDP, DTBL: cudaGetParameterBuffer per launching thread, A"),
      m_launch_device(owner, "launch_device", {12187},
                      "CDP: cudaLaunchDevice per warp, b of A*x + b (Table 5)"),
      m_launch_device_per_thread(owner, "launch_device_per_thread", {1592},
                                 "CDP: cudaLaunchDevice per launching thread, A") {}

void launch_unit::validate() const {
  for (const param<cycles>* p : {&m_stream_create, &m_param_buffer, &m_param_buffer_per_thread,
                                 &m_launch_device, &m_launch_device_per_thread})
    p->require((*p)->value <= cycles::max_latency,
               "must be at most " + units::format_cycles(cycles::max_latency));
}

void launch_unit::resize(std::size_t warps, std::size_t tbs) {
  m_run_left.assign(warps, 0);
  m_generation.assign(tbs, 0);
  m_outstanding.assign(tbs, 0);
}

std::uint64_t launch_unit::api_cycles(control::launch_command::kind k, std::uint32_t x) const {
  const std::uint64_t param = m_param_buffer->value + m_param_buffer_per_thread->value * x;
  if (k == control::launch_command::kind::dtbl) return param;
  return m_stream_create->value + param + m_launch_device->value +
         m_launch_device_per_thread->value * x;
}

launch_unit::command_slot& launch_unit::acquire() {
  for (auto& s : m_slots)
    if (!s->busy) {
      s->busy = true;
      s->request_ended = false;
      return *s;
    }
  m_slots.push_back(std::make_unique<command_slot>());
  m_slots.back()->busy = true;
  return *m_slots.back();
}

launch_unit::command_slot& launch_unit::slot_of(const tlm::tlm_generic_payload& gp) {
  for (auto& s : m_slots)
    if (&s->gp == &gp) return *s;
  throw std::logic_error("a launch response for a command this SMX did not send");
}

std::uint64_t launch_unit::new_tb(std::uint32_t slot) {
  m_outstanding[slot] = 0;
  return m_generation[slot] = ++m_generations;
}

}  // namespace gputlm::core
