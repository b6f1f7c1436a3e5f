// Typed connections between blocks that carry no memory traffic (a controller beside the
// block it watches, a runtime and the units it programs): a block declares a port — an
// sc_port<IF>, the interface it calls — or an export — an sc_export<IF>, the interface it
// provides — by name (component::declare_port / declare_export), and the platform binds
// them by path in `bind:` lists like sockets, `port -> export` (docs/architecture.md).
// The platform checks that the two name the same interface, that a port is bound as often
// as it allows and that a required one is bound at all; each failure is one line naming the
// binding's file and line.
//
//   optional_port<IF>   0 or 1 binding: a block asks IF when something is bound (a wake-up
//                       delay, a register gate); get() is null otherwise
//   required_port<IF>   exactly 1 binding
//   observers<IF>       0..N bindings: an observation point. The block publishes named events
//                       (IF's methods) with notify(); with nothing bound that is a loop over
//                       an empty list
// The interface pointers are kept by the port itself at binding, so that calling through
// a port on a hot path costs what a pointer does.
#pragma once

#include <string>
#include <systemc>
#include <typeindex>
#include <typeinfo>
#include <vector>

namespace gputlm {

// The C++ name of an interface type, for messages ("gputlm::core::neighbour_port").
std::string interface_name(const std::type_info& t);

template <class IF>
class optional_port : public sc_core::sc_port<IF, 1, sc_core::SC_ZERO_OR_MORE_BOUND> {
 public:
  using interface_type = IF;
  static constexpr bool multiple = false;
  static constexpr bool optional = true;
  explicit optional_port(const char* name)
      : sc_core::sc_port<IF, 1, sc_core::SC_ZERO_OR_MORE_BOUND>(name) {}
  IF* get() const { return m_if; }
  explicit operator bool() const { return m_if != nullptr; }
  IF* operator->() const { return m_if; }
  void connect(IF& i) {
    this->bind(i);
    m_if = &i;
  }

 private:
  IF* m_if = nullptr;
};

template <class IF>
class required_port : public sc_core::sc_port<IF, 1, sc_core::SC_ONE_OR_MORE_BOUND> {
 public:
  using interface_type = IF;
  static constexpr bool multiple = false;
  static constexpr bool optional = false;
  explicit required_port(const char* name)
      : sc_core::sc_port<IF, 1, sc_core::SC_ONE_OR_MORE_BOUND>(name) {}
  IF* get() const { return m_if; }
  IF* operator->() const { return m_if; }
  IF& operator*() const { return *m_if; }
  void connect(IF& i) {
    this->bind(i);
    m_if = &i;
  }

 private:
  IF* m_if = nullptr;
};

template <class IF>
class observers : public sc_core::sc_port<IF, 0, sc_core::SC_ZERO_OR_MORE_BOUND> {
 public:
  using interface_type = IF;
  static constexpr bool multiple = true;
  static constexpr bool optional = true;
  explicit observers(const char* name)
      : sc_core::sc_port<IF, 0, sc_core::SC_ZERO_OR_MORE_BOUND>(name) {}
  // Calls f(IF&) for every bound observer, in binding order.
  template <class F>
  void notify(F&& f) const {
    for (IF* o : m_list) f(*o);
  }
  bool any() const { return !m_list.empty(); }
  void connect(IF& i) {
    this->bind(i);
    m_list.push_back(&i);
  }

 private:
  std::vector<IF*> m_list;
};

}  // namespace gputlm
