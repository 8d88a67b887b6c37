/// A five-character SQLSTATE code reported by the server (PostgreSQL manual, Appendix A).
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The two-character class (`"23"` for integrity constraint violations).
    public var errorClass: String { String(rawValue.prefix(2)) }

    /// Class 23: unique, foreign-key, not-null, check and exclusion violations.
    public var isIntegrityConstraintViolation: Bool { errorClass == "23" }

    /// Class 40 (serialization failure, deadlock): the transaction may succeed if retried.
    public var isTransactionRollback: Bool { errorClass == "40" }

    /// Class 08 and the shutdown codes of class 57: the connection is gone or going.
    public var isConnectionFailure: Bool {
        errorClass == "08" || self == .adminShutdown || self == .crashShutdown || self == .cannotConnectNow
    }

    public var description: String { rawValue }

    public static let uniqueViolation = SQLState(rawValue: "23505")
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    public static let notNullViolation = SQLState(rawValue: "23502")
    public static let checkViolation = SQLState(rawValue: "23514")
    public static let exclusionViolation = SQLState(rawValue: "23P01")
    public static let restrictViolation = SQLState(rawValue: "23001")
    public static let serializationFailure = SQLState(rawValue: "40001")
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    public static let undefinedTable = SQLState(rawValue: "42P01")
    public static let undefinedColumn = SQLState(rawValue: "42703")
    public static let undefinedFunction = SQLState(rawValue: "42883")
    public static let syntaxError = SQLState(rawValue: "42601")
    public static let duplicateTable = SQLState(rawValue: "42P07")
    public static let duplicateDatabase = SQLState(rawValue: "42P04")
    public static let invalidTextRepresentation = SQLState(rawValue: "22P02")
    public static let numericValueOutOfRange = SQLState(rawValue: "22003")
    public static let stringDataRightTruncation = SQLState(rawValue: "22001")
    public static let invalidDatetimeFormat = SQLState(rawValue: "22007")
    public static let lockNotAvailable = SQLState(rawValue: "55P03")
    public static let objectInUse = SQLState(rawValue: "55006")
    public static let queryCanceled = SQLState(rawValue: "57014")
    public static let adminShutdown = SQLState(rawValue: "57P01")
    public static let crashShutdown = SQLState(rawValue: "57P02")
    public static let cannotConnectNow = SQLState(rawValue: "57P03")
    public static let inFailedSQLTransaction = SQLState(rawValue: "25P02")
    public static let insufficientPrivilege = SQLState(rawValue: "42501")
}
