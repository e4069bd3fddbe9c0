import Foundation

/// How long a hardening harness runs: `TICK_TORTURE_ROUNDS` rounds (each
/// harness has its own default for CI), or until `TICK_TORTURE_SECONDS` have
/// passed (`scripts/torture.sh`); `TICK_TORTURE_SEED` replays a run.
struct TortureBudget {
    let seed: UInt64
    let rounds: Int
    let deadline: Date?

    init(defaultSeed: UInt64, defaultRounds: Int, environment env: [String: String] = ProcessInfo.processInfo.environment) {
        seed = UInt64(env["TICK_TORTURE_SEED"] ?? "") ?? defaultSeed
        rounds = Int(env["TICK_TORTURE_ROUNDS"] ?? "") ?? defaultRounds
        deadline = Double(env["TICK_TORTURE_SECONDS"] ?? "").map { Date().addingTimeInterval($0) }
    }

    /// True while another round should run, `done` rounds in.
    func allows(after done: Int) -> Bool {
        deadline.map { Date() < $0 } ?? (done < rounds)
    }
}
