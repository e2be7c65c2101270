/// The arguments of one subcommand: `--name value`, `--name=value`, flags and positionals.
struct ArgumentList {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    /// Every option with a value, in the order given (a repeated one each time).
    private(set) var given: [(name: String, value: String)] = []
    private var flags: Set<String> = []

    /// Splits `arguments`; `valued` names the options that take a value, `flagNames` those
    /// that do not. Anything else starting with `--` is an error; a lone `-` is positional.
    init(_ arguments: [String], valued: Set<String>, flags flagNames: Set<String> = []) throws(CommandError) {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagNames.contains(name) && value == nil {
                flags.insert(name)
            } else if valued.contains(name) {
                if value == nil {
                    guard i < arguments.count else { throw .usage("option --\(name) needs a value") }
                    value = arguments[i]
                    i += 1
                }
                options[name] = value
                given.append((name, value ?? ""))
            } else {
                throw .usage("unknown option --\(name)")
            }
        }
    }

    /// Whether the flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The option's text, if given.
    func text(_ name: String) -> String? { options[name] }

    /// The option as an integer, if given.
    func integer(_ name: String) throws(CommandError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text) else { throw .usage("--\(name) expects a whole number, got \"\(text)\"") }
        return value
    }

    /// The option as a number, if given.
    func number(_ name: String) throws(CommandError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw .usage("--\(name) expects a number, got \"\(text)\"")
        }
        return value
    }
}
