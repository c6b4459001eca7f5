/// A configuration value that stops the server from starting: names the variable and what is
/// wrong with it, in one line.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let variable: String
    public let problem: String

    public init(_ variable: String, _ problem: String) {
        self.variable = variable
        self.problem = problem
    }

    public var description: String { "\(variable): \(problem)" }
}
