/// How route figures appear on the wire, in one place: kilometres to one decimal, minutes
/// rounded up (a 20.1-minute drive is announced as 21).
enum WireFigures {
    static func kilometres(meters: Int) -> Double {
        (Double(meters) / 100).rounded() / 10
    }

    static func minutes(seconds: Int) -> Int {
        Int((Double(seconds) / 60).rounded(.up))
    }
}
