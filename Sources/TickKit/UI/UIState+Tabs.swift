extension UIState {
    /// The key that switches to the tab at `index`: `1`…`9`, then `0` for
    /// the tenth; nil past the tenth (`]` `[`, `l` `h` and the arrows cycle
    /// through every tab).
    public static func tabKey(_ index: Int) -> Character? {
        switch index {
        case 0..<9: return Character(String(index + 1))
        case 9: return "0"
        default: return nil
        }
    }

    /// The tab a digit key switches to (`0` is the tenth), as ``tabKey(_:)`` labels them.
    static func tabIndex(_ key: Character) -> Int? {
        guard key.isASCII, let n = key.wholeNumberValue else { return nil }
        return n == 0 ? 9 : n - 1
    }

    /// The tab before (`by` -1) or after (1) the current one, wrapping around.
    mutating func cycleView(by step: Int) -> [UIEffect] {
        switchView(to: ((viewIndex + step) % views.count + views.count) % views.count)
    }
}
