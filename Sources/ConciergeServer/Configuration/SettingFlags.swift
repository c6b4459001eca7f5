/// Checks the settings given as flags before the command-line provider reads them: that provider
/// ignores what it is not asked for, so a misspelt `--prot 9000` would pass unnoticed, and it
/// collects a repeated flag's values into a list.
enum SettingFlags {
    /// Each argument is `--flag value` or `--flag=value`, for a flag of `variables`, at most once.
    static func check(_ arguments: [String], variables: [ConfigurationVariable]) throws(ConfigurationError) {
        let known = Set(variables.map(\.flag))
        var seen: Set<String> = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let flag = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard argument.hasPrefix("--"), known.contains(flag) else {
                throw ConfigurationError(argument, "is not a setting; `concierge serve --help` lists them")
            }
            guard seen.insert(flag).inserted else { throw ConfigurationError(flag, "is given twice") }
            if !argument.contains("=") {
                index += 1
                guard index < arguments.endIndex, !arguments[index].hasPrefix("--") else {
                    throw ConfigurationError(flag, "needs a value, e.g. \(flag) VALUE or \(flag)=VALUE")
                }
            }
            index += 1
        }
    }
}
