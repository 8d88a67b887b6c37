import Foundation
import LinkKit

/// The field checks the API applies, delegating to LinkKit's validators so that the API and
/// `linkd aasa validate` reject exactly the same things. Each returns the normalised value, or records
/// an error at `pointer` and returns nil.
enum Validators {
    static func teamID(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        do { return try TeamID(text).rawValue } catch { errors.add(pointer, error.message); return nil }
    }

    static func bundleID(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        do { return try BundleID(text).rawValue } catch { errors.add(pointer, error.message); return nil }
    }

    static func packageName(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        do { return try AndroidPackageName(text).rawValue } catch { errors.add(pointer, error.message); return nil }
    }

    static func fingerprint(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        do { return try CertificateFingerprint(normalizing: text).description } catch { errors.add(pointer, error.message); return nil }
    }

    static func hostname(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        do { return try Hostname(text).rawValue } catch { errors.add(pointer, error.message); return nil }
    }

    /// Digits only: the numeric Apple ID of the App Store listing.
    static func appStoreID(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        guard !text.isEmpty, TextLimit(scalars: 20).allows(text), text.allSatisfy(\.isASCIIDigit) else {
            errors.add(pointer, "appStoreId is the numeric App Store ID (e.g. 1234567890), not '\(text)'.")
            return nil
        }
        return text
    }

    /// An RFC 3986 scheme (`myapp`), not a web scheme.
    static func customScheme(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        let lower = text.lowercased()
        guard let first = lower.first, first.isASCII, first.isLetter, TextLimit(scalars: 64).allows(lower),
            lower.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else {
            errors.add(pointer, "customScheme must be a URL scheme such as 'myapp' (letters, digits, + - .), without ':' or '//'.")
            return nil
        }
        guard !["http", "https", "file", "javascript", "data"].contains(lower) else {
            errors.add(pointer, "customScheme cannot be '\(lower)'.")
            return nil
        }
        return lower
    }

    /// An absolute `https` URL (redirect targets and store links are never anything else: no open redirect).
    /// Every URL field is one: the web fallback, store URLs, preview images. They end up in `Location` headers
    /// and pages, so a control character (CR and LF above all, which would end the header) is refused, as is
    /// anything else a URL cannot hold unescaped (a space, `<`, `"`...: RFC 3986 §2).
    static func httpsURL(_ text: String?, at pointer: String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        if let bad = text.unicodeScalars.first(where: { !Self.urlScalars.contains($0) }) {
            let code = String(bad.value, radix: 16, uppercase: true)
            errors.add(
                pointer,
                "A URL cannot hold U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code) (control characters, spaces and < > \" { } | \\ ^ ` must be percent-encoded)."
            )
            return nil
        }
        guard TextLimit.url.allows(text), let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil
        else {
            errors.add(pointer, "Expected an absolute https:// URL.")
            return nil
        }
        return text
    }

    /// What a URL may hold unescaped: the printable ASCII RFC 3986 allows, plus characters beyond ASCII
    /// (IRIs, RFC 3987) other than controls.
    private static let urlScalars: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "!#$%&'()*+,-./:;=?@[]_~").union(CharacterSet(charactersIn: "a"..."z"))
            .union(CharacterSet(charactersIn: "A"..."Z")).union(CharacterSet(charactersIn: "0"..."9"))
        allowed.insert(charactersIn: Unicode.Scalar(0xA0)!...Unicode.Scalar(0x10FFFF)!)
        return allowed.subtracting(.controlCharacters)
    }()

    /// A name for a destination type or parameter: the same rule as a template capture's name.
    static func identifier(_ text: String?, at pointer: @autoclosure () -> String, _ errors: FieldErrors) -> String? {
        guard let text else { return nil }
        guard RouteTemplate.isValidName(text) else {
            errors.add(pointer(), "'\(text)' is not a valid name: a letter, then letters, digits or _ (at most 64).")
            return nil
        }
        return text
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
