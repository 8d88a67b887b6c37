import Postgres
import Testing
import TestSupport

@Suite struct TestSupportTests {
    private func databaseExists(_ name: String) throws -> Bool {
        try TestCluster.withAdminConnection { connection in
            try connection.query("SELECT count(*) FROM pg_database WHERE datname = \(name)")[0].decode(0, as: Int.self) == 1
        }
    }

    struct Failure: Error {}

    @Test func withTestDatabaseDropsTheDatabaseEvenWhenTheBodyThrows() throws {
        var name = ""
        #expect(throws: Failure.self) {
            try withTestDatabase { parameters in
                name = parameters["dbname"] ?? ""
                let connection = try Connection(parameters) // left open on purpose: the drop forces it closed
                try connection.executeScript("CREATE TABLE t (a int)")
                throw Failure()
            }
        }
        #expect(name.hasPrefix("linkd_test_"))
        #expect(try !databaseExists(name))
    }

    @Test func databasesCanBeCreatedFromATemplate() throws {
        let template = try TestDatabase.create()
        do {
            let connection = try Connection(template.parameters)
            try connection.executeScript("CREATE TABLE migrated (version int); INSERT INTO migrated VALUES (7)")
        } // the template must have no open connections when it is copied
        try withTestDatabase(template: template.name) { parameters in
            let connection = try Connection(parameters)
            #expect(try connection.query("SELECT version FROM migrated")[0].decode(0, as: Int.self) == 7)
        }
        try template.drop()
        #expect(try !databaseExists(template.name))
    }
}
