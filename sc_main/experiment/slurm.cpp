#include "sc_main/experiment/slurm.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "models/base/input_error.h"
#include "models/base/output_files.h"
#include "sc_main/commands.h"
#include "sc_main/experiment/process_pool.h"

namespace gputlm::experiment {
namespace {

std::string first_line(const std::string& text) {
  const auto nl = text.find('\n');
  return nl == std::string::npos ? text : text.substr(0, nl);
}

const source_location k_slurm_option{"<command line>", 0, 0};

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string submit_job_array(const std::string& dir, const std::string& workdir,
                             const std::string& job_name, const std::vector<slurm_task>& tasks,
                             const slurm_options& o) {
  std::ostringstream sh;
  sh << "#!/bin/sh\n# gputlm experiment " << job_name << ": array task i runs point i.\n"
     << "case \"$SLURM_ARRAY_TASK_ID\" in\n";
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    sh << i << ")";
    for (const auto& a : tasks[i].argv) sh << " " << shell_quote(a);
    sh << " >" << shell_quote(tasks[i].log) << " 2>&1 ;;\n";
  }
  sh << "*) echo \"no task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n";
  const std::string script = dir + "/job.sh";
  cli::write_file_atomically(script, sh.str());
  ::chmod(script.c_str(), 0755);

  std::vector<std::string> argv{"sbatch",
                                "--parsable",
                                "--job-name=gputlm-" + job_name,
                                "--array=0-" + std::to_string(tasks.size() - 1),
                                "--output=" + dir + "/task-%a.out",
                                "--chdir=" + workdir};
  if (!o.partition.empty()) argv.push_back("--partition=" + o.partition);
  if (!o.time.empty()) argv.push_back("--time=" + o.time);
  if (!o.mem.empty()) argv.push_back("--mem=" + o.mem);
  if (o.wait) argv.push_back("--wait");
  argv.push_back(script);
  const std::string out = dir + "/sbatch.out", err = dir + "/sbatch.err";
  std::remove(out.c_str());
  std::remove(err.c_str());
  const int status = run_command(argv, out, err);
  // --parsable prints "<id>" or "<id>;<cluster>" at submission; with --wait sbatch ends when
  // the job does, with a non-zero status when a task failed (the runner sees which).
  std::string id = first_line(read_file_text(out));
  id = id.substr(0, id.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    const std::string why = first_line(read_file_text(err));
    throw input_error(k_slurm_option, "--slurm",
                      "sbatch could not submit the job array (status " + std::to_string(status) +
                          (why.empty() ? std::string(")") : "): " + why));
  }
  return id;
}

void check_slurm_cluster(const std::string& scratch) {
  const std::string out = scratch + "/sinfo.out", err = scratch + "/sinfo.err";
  const int status = run_command({"sinfo", "-h", "-o", "%P"}, out, err);
  if (status == 127)
    throw input_error(k_slurm_option, "--slurm",
                      "sinfo cannot be run: Slurm's client commands are not installed "
                      "(Debian: slurm-client)");
  if (status != 0) {
    const std::string why = first_line(read_file_text(err));
    throw input_error(k_slurm_option, "--slurm",
                      "no Slurm cluster answers (sinfo, status " + std::to_string(status) +
                          (why.empty() ? std::string(")") : "): " + why));
  }
}

std::size_t slurm_tasks_active(const std::string& id, const std::string& scratch) {
  const std::string out = scratch + "/squeue.out";
  std::remove(out.c_str());
  if (run_command({"squeue", "-h", "-r", "-j", id, "-o", "%i"}, out, "") != 0) return 0;
  std::istringstream lines(read_file_text(out));
  std::size_t n = 0;
  for (std::string l; std::getline(lines, l);) n += !l.empty();
  return n;
}

}  // namespace gputlm::experiment
