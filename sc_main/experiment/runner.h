// `gputlm experiment FILE.yaml`: from an experiment file to results.csv, results.json,
// report.md and plots (docs/experiments.md). Each point of the matrix is its own
// `gputlm run` process, run here in parallel or on a Slurm cluster as a job array; points
// whose inputs are unchanged are taken from the output folder instead of run again.
#pragma once

#include <string>
#include <vector>

namespace gputlm::experiment {

int experiment_main(const std::vector<std::string>& args);

}  // namespace gputlm::experiment
