import Foundation
import Postgres
import Testing
import TestSupport

@Suite struct ErrorMappingTests {
    let database: TestDatabase
    let connection: Connection

    init() throws {
        database = try TestDatabase.create()
        connection = try Connection(database.parameters)
        try connection.executeScript(
            """
            CREATE TABLE parents (id int PRIMARY KEY);
            CREATE TABLE children (
                id int PRIMARY KEY,
                parent int NOT NULL REFERENCES parents (id),
                age int CHECK (age >= 0)
            );
            INSERT INTO parents VALUES (1);
            INSERT INTO children VALUES (1, 1, 3);
            """)
    }

    private func sqlState(_ query: Query) -> (PostgresError?) {
        do {
            try connection.execute(query)
            return nil
        } catch {
            return error
        }
    }

    @Test func constraintViolationsCarryTheirSQLState() {
        let unique = sqlState("INSERT INTO children VALUES (\(1), \(1), \(5))")
        #expect(unique?.code == .queryFailed)
        #expect(unique?.sqlState == .uniqueViolation)
        #expect(unique?.sqlState?.isIntegrityConstraintViolation == true)
        #expect(unique?.description == "PostgresError(queryFailed, sqlstate: 23505)")
        #expect(unique?.serverMessage?.contains("children_pkey") == true)

        #expect(sqlState("INSERT INTO children VALUES (2, \(99), 1)")?.sqlState == .foreignKeyViolation)
        #expect(sqlState("INSERT INTO children VALUES (2, \(Int?.none), 1)")?.sqlState == .notNullViolation)
        #expect(sqlState("INSERT INTO children VALUES (2, 1, \(-1))")?.sqlState == .checkViolation)
        #expect(sqlState("DELETE FROM parents")?.sqlState == .foreignKeyViolation)
        #expect(sqlState("SELECT * FROM nowhere")?.sqlState == .undefinedTable)
        #expect(sqlState("SELEC 1")?.sqlState == .syntaxError)
        #expect(sqlState("SELECT \("abc")::int")?.sqlState == .invalidTextRepresentation)
        #expect(connection.isUsable)
    }

    @Test func descriptionNeverLeaksSQLOrValues() {
        let secret = "hunter2-secret"
        let error = sqlState("INSERT INTO children VALUES (1, 1, \(secret)::int)")
        #expect(error?.sqlState == .invalidTextRepresentation)
        #expect(error.map { !"\($0)".contains(secret) && !"\($0)".contains("INSERT") } == true)
        #expect(error?.serverMessage?.contains(secret) == true) // the log-only field may quote it
    }

    @Test func concurrentUpdateInSerializableTransactionIsSerializationFailure() throws {
        let other = try Connection(database.parameters)
        try connection.executeScript("BEGIN ISOLATION LEVEL SERIALIZABLE")
        _ = try connection.query("SELECT age FROM children WHERE id = 1") // takes the snapshot
        try other.executeScript("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try other.execute("UPDATE children SET age = age + 1 WHERE id = 1")
        try other.executeScript("COMMIT")
        let error = sqlState("UPDATE children SET age = age + 10 WHERE id = 1")
        #expect(error?.sqlState == .serializationFailure)
        #expect(error?.sqlState?.isTransactionRollback == true)
        #expect(!connection.isUsable) // inside a failed transaction until ROLLBACK
        try connection.executeScript("ROLLBACK")
        #expect(connection.isUsable)
    }

    @Test func writeSkewBetweenSerializableTransactionsIsSerializationFailure() throws {
        try connection.executeScript(
            "CREATE TABLE doctors (name text PRIMARY KEY, on_call bool NOT NULL); INSERT INTO doctors VALUES ('a', true), ('b', true)")
        let other = try Connection(database.parameters)
        try connection.executeScript("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try other.executeScript("BEGIN ISOLATION LEVEL SERIALIZABLE")
        #expect(try connection.query("SELECT count(*) FROM doctors WHERE on_call")[0].decode(0, as: Int.self) == 2)
        #expect(try other.query("SELECT count(*) FROM doctors WHERE on_call")[0].decode(0, as: Int.self) == 2)
        try connection.execute("UPDATE doctors SET on_call = false WHERE name = 'a'")
        try other.execute("UPDATE doctors SET on_call = false WHERE name = 'b'")
        try connection.executeScript("COMMIT")
        #expect {
            try other.executeScript("COMMIT")
        } throws: { ($0 as? PostgresError)?.sqlState == .serializationFailure }
    }

    @Test func scriptErrorsStopAtTheFailingStatement() throws {
        #expect {
            try connection.executeScript("CREATE TABLE s1 (a int); INSERT INTO s1 VALUES ('x'); CREATE TABLE s2 (a int)")
        } throws: { ($0 as? PostgresError)?.sqlState == .invalidTextRepresentation }
        // The script ran as one implicit transaction: nothing of it remains.
        #expect(try connection.query("SELECT to_regclass('s1') IS NULL AND to_regclass('s2') IS NULL")[0].decode(0, as: Bool.self))
    }

    @Test func nulBytesInParametersAreRefused() {
        #expect {
            try connection.execute("SELECT \("a\u{0}b")::text")
        } throws: { ($0 as? PostgresError)?.code == .invalidParameters }
    }
}
