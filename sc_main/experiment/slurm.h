// An experiment's points as one Slurm job array (docs/experiments.md, "On a Slurm
// cluster"): a job script whose array task i runs point i's `gputlm run`, submitted with
// `sbatch --array`; the runner then waits for it (`sbatch --wait`) or leaves it to a later
// `gputlm experiment FILE --collect`.
#pragma once

#include <string>
#include <vector>

namespace gputlm::experiment {

struct slurm_task {
  std::vector<std::string> argv;
  std::string log;  // standard output and error of the task
};

struct slurm_options {
  std::string partition, time, mem;
  bool wait = true;
};

// Before any work of a --slurm run: a cluster answers (sinfo reaches its controller).
// Throws input_error naming --slurm, with sinfo's message, when none does.
void check_slurm_cluster(const std::string& scratch);

// Writes `dir`/job.sh and submits it, its tasks to run in `workdir`; returns the job id.
// With `wait`, returns when every task has ended. Throws input_error naming --slurm with
// sbatch's message when it cannot submit.
std::string submit_job_array(const std::string& dir, const std::string& workdir,
                             const std::string& job_name, const std::vector<slurm_task>& tasks,
                             const slurm_options& options);

// How many tasks of job `id` Slurm still lists as pending or running (squeue); 0 when the
// job has ended or squeue does not know it.
std::size_t slurm_tasks_active(const std::string& id, const std::string& scratch);

// `s` quoted for /bin/sh.
std::string shell_quote(const std::string& s);

}  // namespace gputlm::experiment
