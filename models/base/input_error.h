// Bad-input reporting shared by every front end (platform YAML, command line, traces).
//
// A bad input is never a crash: readers throw input_error, the `gputlm` command prints
// what() as a single line and exits with status 2. The line always names where the
// problem is (file, line, column or block) and which key or field is wrong.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gputlm {

// Where a value came from. line/column are 1-based; 0 means "not known".
struct source_location {
  std::string file;  // path, or "<command line>"
  std::uint64_t line = 0;
  std::uint64_t column = 0;

  std::string to_string() const {
    std::string s = file.empty() ? std::string("<input>") : file;
    if (line != 0) {
      s += ":" + std::to_string(line);
      if (column != 0) s += ":" + std::to_string(column);
    }
    return s;
  }
};

// Thrown for any problem with user input. what() is the complete one-line message:
//   "<file>:<line>:<col>: <key path>: <message>"
class input_error : public std::runtime_error {
 public:
  input_error(const source_location& where, const std::string& key, const std::string& message)
      : std::runtime_error(format(where, key, message)),
        m_where(where),
        m_key(key),
        m_message(message) {}

  const source_location& where() const { return m_where; }
  const std::string& key() const { return m_key; }
  const std::string& message() const { return m_message; }  // without place and key

  // The message stays one line: control characters (a newline in a quoted YAML key, say)
  // are written as escapes, \n, \t, \r or \xNN.
  static std::string one_line(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (unsigned char c : text) {
      if (c >= 0x20 && c != 0x7f) {
        out += static_cast<char>(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else {
        static const char hex[] = "0123456789abcdef";
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
    return out;
  }

 private:
  static std::string format(const source_location& where, const std::string& key,
                            const std::string& message) {
    std::string s = where.to_string() + ": ";
    if (!key.empty()) s += key + ": ";
    return one_line(s + message);
  }

  source_location m_where;
  std::string m_key;
  std::string m_message;
};

// Exit statuses of the `gputlm` command.
enum exit_status : int { exit_ok = 0, exit_internal_error = 1, exit_bad_input = 2 };

}  // namespace gputlm
