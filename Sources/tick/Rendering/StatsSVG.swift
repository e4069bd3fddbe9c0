import FoundationEssentials
import TickKit

/// A standalone SVG bar chart of ``CompletionStats``: one `rect.bar` per period
/// (with `data-count`), a y axis with a rounded scale, labels and a title; no
/// scripts, fonts or other external resources.
struct StatsSVG {
    let renderer: StatsRenderer

    static let width = 800.0
    static let height = 500.0
    static let left = 70.0
    static let right = 20.0
    static let top = 70.0
    static let bottom = 80.0

    /// The top of the y axis and its number of grid steps: the smallest "round" value
    /// (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten, a whole number) at or above
    /// the largest count, split into 2 to 6 whole-number steps, preferring round steps
    /// (500 rather than 625), then four steps (one per unit up to 5).
    static func scale(for value: Int) -> (top: Int, steps: Int) {
        let v = max(value, 1)
        if v <= 5 { return (v, v) }
        var unit = 1
        while true {
            for m in [10, 12, 15, 20, 25, 30, 40, 50, 60, 80] where m * unit % 10 == 0 {
                let top = m * unit / 10
                guard top >= v else { continue }
                // Round step values (1, 2, 2.5 or 5 times a power of ten) first, then any.
                let fitting = [4, 5, 6, 3, 2].filter { top % $0 == 0 }
                if let steps = fitting.first(where: { isRound(top / $0) }) ?? fitting.first { return (top, steps) }
            }
            unit *= 10
        }
    }

    /// True for 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, ...
    static func isRound(_ step: Int) -> Bool {
        var n = step
        while n >= 100, n % 10 == 0 { n /= 10 }
        return [1, 2, 5, 10, 20, 25, 50].contains(n)
    }

    /// Escapes text for XML content and attribute values.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }

    static func n(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    func render() -> String {
        let stats = renderer.stats
        let (w, h) = (Self.width, Self.height)
        let plotW = w - Self.left - Self.right
        let plotH = h - Self.top - Self.bottom
        let baseY = Self.top + plotH
        let maxCount = stats.buckets.map(\.count).max() ?? 0
        let (scale, steps) = Self.scale(for: maxCount)
        let count = max(stats.buckets.count, 1)
        let slot = plotW / Double(count)
        let barW = slot * 0.7
        let subtitle = "\(renderer.dayText(stats.buckets.first?.start ?? renderer.today)) to \(renderer.dayText(renderer.today)) · \(stats.total) completed · \(stats.trendText) · streak \(stats.streak.days) day\(stats.streak.days == 1 ? "" : "s")"
        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Self.n(w)) \(Self.n(h))" width="\(Self.n(w))" height="\(Self.n(h))" font-family="sans-serif" role="img" aria-labelledby="title">
        <title id="title">\(Self.escape(renderer.title))</title>
        <style>.bar{fill:#3b82f6}.current{fill:#93c5fd}.grid{stroke:#e5e7eb;stroke-width:1}.axis{stroke:#374151;stroke-width:1}text{fill:#111827}.small{font-size:12px;fill:#4b5563}</style>
        <rect x="0" y="0" width="\(Self.n(w))" height="\(Self.n(h))" fill="#ffffff"/>
        <text x="\(Self.n(w / 2))" y="30" text-anchor="middle" font-size="20" font-weight="bold">\(Self.escape(renderer.title))</text>
        <text x="\(Self.n(w / 2))" y="52" text-anchor="middle" class="small">\(Self.escape(subtitle))</text>

        """
        // Grid lines and y labels: whole numbers, five steps at most.
        for i in 0...steps {
            let value = Double(scale) * Double(i) / Double(steps)
            let y = baseY - plotH * Double(i) / Double(steps)
            s += "<line class=\"grid\" x1=\"\(Self.n(Self.left))\" y1=\"\(Self.n(y))\" x2=\"\(Self.n(w - Self.right))\" y2=\"\(Self.n(y))\"/>\n"
            s += "<text class=\"small\" x=\"\(Self.n(Self.left - 8))\" y=\"\(Self.n(y + 4))\" text-anchor=\"end\">\(Self.n(value))</text>\n"
        }
        let every = max(1, Int((Double(count) / 14).rounded(.up)))
        for (i, bucket) in stats.buckets.enumerated() {
            let x = Self.left + slot * Double(i) + (slot - barW) / 2
            let barH = plotH * Double(bucket.count) / Double(scale)
            let current = bucket.start <= renderer.today && renderer.today < bucket.end
            let label = renderer.label(bucket)
            s += "<rect class=\"bar\(current ? " current" : "")\" x=\"\(Self.n(x))\" y=\"\(Self.n(baseY - barH))\" width=\"\(Self.n(barW))\" height=\"\(Self.n(barH))\" data-start=\"\(bucket.start.iso)\" data-count=\"\(bucket.count)\"><title>\(Self.escape(label)): \(bucket.count)</title></rect>\n"
            if bucket.count > 0 {
                s += "<text class=\"small\" x=\"\(Self.n(x + barW / 2))\" y=\"\(Self.n(baseY - barH - 4))\" text-anchor=\"middle\">\(bucket.count)</text>\n"
            }
            if i % every == 0 {
                s += "<text class=\"small\" x=\"\(Self.n(x + barW / 2))\" y=\"\(Self.n(baseY + 18))\" text-anchor=\"middle\">\(Self.escape(renderer.shortLabel(bucket)))</text>\n"
            }
        }
        s += "<line class=\"axis\" x1=\"\(Self.n(Self.left))\" y1=\"\(Self.n(baseY))\" x2=\"\(Self.n(w - Self.right))\" y2=\"\(Self.n(baseY))\"/>\n"
        s += "<line class=\"axis\" x1=\"\(Self.n(Self.left))\" y1=\"\(Self.n(Self.top))\" x2=\"\(Self.n(Self.left))\" y2=\"\(Self.n(baseY))\"/>\n"
        let xTitle = stats.period == .week ? "week starting (Monday)" : stats.period.noun
        s += "<text class=\"small\" x=\"\(Self.n(Self.left + plotW / 2))\" y=\"\(Self.n(h - 20))\" text-anchor=\"middle\">\(xTitle) · \(Self.escape(renderer.timeZone.identifier)) · the lighter bar is the current \(stats.period.noun), so far</text>\n"
        s += "<text class=\"small\" x=\"20\" y=\"\(Self.n(Self.top + plotH / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 20 \(Self.n(Self.top + plotH / 2)))\">tasks completed</text>\n"
        s += "</svg>\n"
        return s
    }
}
