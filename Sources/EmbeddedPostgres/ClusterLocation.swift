import Foundation

/// Where a cluster's files (`pgdata/`, `socket/`, `postgresql.log`) live: in the data directory, unless
/// the server runs as `postgres` (we are root) and that user cannot reach the data directory, as under a
/// private home folder (`/root`, mode 0700). Such a folder is the user's: it is never chmod-ed. The cluster
/// goes to `<relocation root>/<hash of the data directory's path>` instead (`/var/lib/linkd/…` by
/// default), the same place on every start; the data directory keeps everything else linkd writes (the
/// hit spool) and a symbolic link `postgres` to the cluster, so people find it.
struct ClusterLocation: Sendable, Equatable {
    /// The directory holding `pgdata/`, `socket/` and the log.
    let directory: URL
    /// When relocated: the ancestor of the data directory that the server user cannot search.
    let blockedAncestor: String?
    /// When no location works: what to do, in one line. `start()` throws it before creating anything.
    let problem: String?

    /// Decides for `dataDirectory` (absolute, standardised). A cluster already created in either place is
    /// used where it is, so data is never left behind by a change of permissions.
    static func choose(for dataDirectory: URL, relocationRoot: URL, runAs user: ServerUser?) -> ClusterLocation {
        let relocated = relocationRoot.appendingPathComponent(directoryName(for: dataDirectory))
        let here = ClusterLocation(directory: dataDirectory, blockedAncestor: nil, problem: nil)
        func hasCluster(_ directory: URL) -> Bool {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("pgdata/PG_VERSION").path)
        }
        guard let user, !hasCluster(dataDirectory) else { return here }
        guard let blocked = user.firstUnsearchableAncestor(of: dataDirectory) else {
            return hasCluster(relocated) ? ClusterLocation(directory: relocated, blockedAncestor: nil, problem: nil) : here
        }
        if let rootBlocked = user.firstUnsearchableAncestor(of: relocated) {
            return ClusterLocation(
                directory: dataDirectory, blockedAncestor: blocked,
                problem: """
                    the PostgreSQL server runs as user postgres, which cannot enter \(blocked) (on the way to \
                    \(dataDirectory.path)), nor \(rootBlocked) (on the way to \(relocated.path)): pass --data-dir \
                    a directory postgres can reach, such as /var/lib/linkd/data, or set DATABASE_URL
                    """)
        }
        return ClusterLocation(directory: relocated, blockedAncestor: blocked, problem: nil)
    }

    /// A stable name per data directory path: FNV-1a (64 bits) of the path in hex, not `Hasher`, which is
    /// seeded per process.
    static func directoryName(for dataDirectory: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in dataDirectory.path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension ServerUser {
    /// The first existing directory on the way to `path` (its ancestors, then `path` itself when it exists
    /// and is not `path`'s last component) that this user may not search, or nil when it can get through.
    /// Decided from the permission bits (owner, then group, then others, as the kernel does); access control
    /// lists are not read, so a directory opened only by one counts as closed and the cluster is relocated.
    func firstUnsearchableAncestor(of path: URL) -> String? {
        let path = path.resolvingSymlinksInPath()
        let groups = groupIDs()
        var current = "/"
        for component in path.pathComponents.dropFirst().dropLast() {
            current = (current as NSString).appendingPathComponent(component)
            var info = stat()
            guard stat(current, &info) == 0 else { return nil } // missing from here on: created by linkd
            let mode = info.st_mode
            let searchable =
                info.st_uid == uid
                ? mode & 0o100 != 0
                : groups.contains(info.st_gid)
                    ? mode & 0o010 != 0
                    : mode & 0o001 != 0
            if !searchable { return current }
        }
        return nil
    }

    /// The user's primary and supplementary groups.
    private func groupIDs() -> Set<gid_t> {
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        // getgrouplist(3): "If the number of groups of which user is a member is less than or equal to
        // *ngroups, then the value *ngroups is returned. [...] Otherwise, -1 is returned" and *ngroups is set
        // to the number needed.
        if getgrouplist(name, gid, &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, gid, &groups, &count) != -1 else { return [gid] }
        }
        return Set(groups.prefix(Int(count))).union([gid])
    }
}
