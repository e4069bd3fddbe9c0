/// Which way a WHEN expression without a sign leans: a due or scheduled date
/// lies ahead (`fri` is the next Friday, `3d` is in three days); a `--since` or a
/// `completed.after:` date lies behind (`fri` is the last Friday, `3d` is three
/// days ago). Signed forms (`in 3d`, `+3d`, `3d ago`, `-3d`) say their own way.
public enum WhenDirection: Sendable, Equatable {
    case future, past
}
