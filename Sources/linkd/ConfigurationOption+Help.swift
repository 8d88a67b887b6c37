extension ConfigurationOption {
    /// The help of the database-using commands: per option, the flag, the environment variable and the
    /// default, then what it does, wrapped.
    static func helpText(_ options: [ConfigurationOption]) -> String {
        var text = "Options (flag, environment variable, default):"
        for option in options {
            text += "\n  --\(option.name) \(option.placeholder)  \(option.environment)  default: \(option.defaultText)"
            for line in wrap(option.help, width: 96) { text += "\n        " + line }
        }
        return text
    }

    /// The options as the Markdown table of docs/CONFIGURATION.md.
    static func markdownTable(_ options: [ConfigurationOption]) -> String {
        var text = "| option | environment variable | default | what it sets |\n| --- | --- | --- | --- |\n"
        for option in options {
            let prose = [option.defaultText, option.help].map { $0.replacingOccurrences(of: "<", with: "\\<") }
            let cells = ["`--\(option.name) \(option.placeholder)`", "`\(option.environment)`"] + prose
            text += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
        }
        return text
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line.isEmpty ? lines : lines + [line]
    }
}
