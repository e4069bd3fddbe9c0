import ArgumentParser
import FoundationEssentials
import Glibc
import TickKit

/// `--hours` of the planning commands.
struct WorkingHoursOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Working hours, e.g. 08:30-17:00.",
        discussion: "Default: $TICK_WORK_HOURS, else [plan] hours in ~/.config/tick/config.toml, else 09:00-18:00.",
        valueName: "range"))
    var hours: String?

    /// `--hours`, else `TICK_WORK_HOURS`, else `[plan] hours` in config.toml, else 09:00-18:00.
    func resolve(_ context: Context) throws -> WorkingHours {
        let environment = context.environment
        if let hours {
            guard let h = WorkingHours(parsing: hours) else {
                throw InputError.invalid("--hours: \"\(hours)\" is not a range like 08:30-17:00 (start before end)")
            }
            return h
        }
        if let env = environment["TICK_WORK_HOURS"], !env.isEmpty {
            guard let h = WorkingHours(parsing: env) else {
                throw InputError.invalid("TICK_WORK_HOURS=\(env) is not a range like 08:30-17:00 (start before end)")
            }
            return h
        }
        let config = try context.config()
        if let configured = config.workHours {
            guard let h = WorkingHours(parsing: configured) else {
                throw ConfigError.badValue(path: config.path ?? "config.toml", key: "plan.hours", found: "\"\(configured)\"",
                                           expected: "a range like \"08:30-17:00\" (start before end)")
            }
            return h
        }
        return .standard
    }
}
