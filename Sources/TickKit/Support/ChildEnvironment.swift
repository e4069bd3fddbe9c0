/// The environment tick gives the tools it runs (git, the notifier, capture's
/// prompts, vdirsyncer): what they need from the user's environment (where
/// programs are, home, locale and time zone, the display and D-Bus session,
/// ssh and gpg agents, proxies and certificates, git's and the XDG
/// directories' variables), and never tick's own variables (`TICK_*`: the
/// pinned clock of tests, the store, hooks' switches) or anything else the
/// process happened to inherit.
///
/// Hooks and the editor are the user's own programs and get the command's
/// environment as it is (see ``TaskHooks``); this is for tools.
public enum ChildEnvironment {
    /// Variables passed by name.
    static let names: Set<String> = [
        "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "LANG", "LANGUAGE",
        "TERM", "COLORTERM", "NO_COLOR", "EDITOR", "VISUAL",
        "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS",
        "SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_ASKPASS", "GNUPGHOME", "GPG_TTY",
        "http_proxy", "https_proxy", "no_proxy", "all_proxy",
        "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY",
        "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
    ]
    /// Variables passed by prefix: the locale categories, the XDG base and
    /// session directories, git's own (identity, config, ssh command), and
    /// `pass`'s (a CalDAV password command).
    static let prefixes = ["LC_", "XDG_", "GIT_", "PASSWORD_STORE_"]

    /// What a tool gets from `environment` (the command's environment).
    public static func forTools(from environment: [String: String]) -> [String: String] {
        environment.filter { name, _ in
            names.contains(name) || prefixes.contains { name.hasPrefix($0) }
        }
    }
}
