# Sourced by Benchmarks/run.sh and Benchmarks/scaling.sh: the one set of
# Taskwarrior settings both benchmarks use (see Benchmarks/README.md).
#   write_taskrc FILE DATA_DIR
write_taskrc() {
  cat >"$1" <<EOF_TASKRC
# Taskwarrior settings for the benchmark (see Benchmarks/README.md).
data.location=$2
confirmation=off
verbose=nothing
color=off
hooks=off
recurrence=off
gc=on
search.case.sensitive=no
regex=on
json.array=on
news.version=2.6.0
uda.remind.type=date
uda.remind.label=Remind
uda.energy.type=string
uda.energy.label=Energy
uda.energy.values=high,low,any
uda.estimate.type=numeric
uda.estimate.label=Estimate
EOF_TASKRC
}
