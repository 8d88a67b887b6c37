import Postgres
import Testing

@Suite struct ConnectionParametersTests {
    @Test func parsesURIWithCredentialsPortAndQuery() throws {
        let parameters = try ConnectionParameters(
            "postgresql://linkd:s3cr%40t@db.example.com:6543/links?sslmode=disable&application_name=linkd")
        #expect(parameters["user"] == "linkd")
        #expect(parameters["password"] == "s3cr@t")
        #expect(parameters["host"] == "db.example.com")
        #expect(parameters["port"] == "6543")
        #expect(parameters["dbname"] == "links")
        #expect(parameters["sslmode"] == "disable")
        #expect(parameters["application_name"] == "linkd")
        #expect(!parameters.description.contains("s3cr")) // the password stays out of logs
    }

    @Test func parsesURIWithUnixSocketHost() throws {
        let parameters = try ConnectionParameters("postgresql:///linkd?host=/var/run/postgresql")
        #expect(parameters["host"] == "/var/run/postgresql")
        #expect(parameters["dbname"] == "linkd")
        #expect(parameters["port"] == nil)
    }

    @Test func parsesKeywordForm() throws {
        let parameters = try ConnectionParameters("host=/tmp/sock port=5433 dbname='my db' user=postgres")
        #expect(parameters["host"] == "/tmp/sock")
        #expect(parameters["port"] == "5433")
        #expect(parameters["dbname"] == "my db")
        #expect(parameters["user"] == "postgres")
    }

    @Test func settingReplacesOrAdds() throws {
        let base = try ConnectionParameters("host=/tmp dbname=postgres")
        let changed = base.setting("dbname", to: "linkd_test_3").setting("application_name", to: "x")
        #expect(changed["dbname"] == "linkd_test_3")
        #expect(changed["application_name"] == "x")
        #expect(base["dbname"] == "postgres")
        let reparsed = try ConnectionParameters(changed.conninfo)
        #expect(reparsed["dbname"] == "linkd_test_3")
    }

    @Test(arguments: ["host=/tmp nosuchkeyword=1", "postgresql://host:notaport/db?x", "dbname='unterminated", "postgresql://[::1/db"])
    func rejectsBadStrings(_ text: String) {
        #expect {
            _ = try ConnectionParameters(text)
        } throws: { error in
            (error as? PostgresError)?.code == .invalidParameters
        }
    }

    @Test func connectingToNothingFailsWithConnectionFailed() throws {
        let parameters = try ConnectionParameters("host=/nonexistent-dir port=1 dbname=x user=postgres")
        #expect {
            _ = try Connection(parameters)
        } throws: { error in
            let error = error as? PostgresError
            return error?.code == .connectionFailed && error?.serverMessage?.isEmpty == false
                && error?.description == "PostgresError(connectionFailed, sqlstate: -)"
        }
    }
}
