import Foundation
import LinkKit
import Postgres

/// A registered app: iOS (team ID + bundle ID, so the appID `TEAMID.bundle.id`) or Android
/// (package name + signing-certificate fingerprints).
struct App: VersionedResource {
    static let auditType = "app"

    /// One SHA-256 signing-certificate fingerprint with what it is ("Play App Signing", "upload", "debug"):
    /// mixing up the upload key and the Play signing key is the most common Android App Links failure.
    struct Fingerprint: Sendable, Equatable {
        var value: String
        var label: String?
    }

    let id: UUID
    let platform: AppPlatform
    var name: String
    var teamID: String?
    var bundleID: String?
    var appStoreID: String?
    var customScheme: String?
    var packageName: String?
    var fingerprints: [Fingerprint]
    var playStoreURL: String?
    /// The domain whose rules its custom-scheme links follow (docs/LINKS.md), and its hostname as read.
    var primaryDomainID: UUID?
    var primaryDomain: String?
    /// The icon the landing page shows beside the app's name (docs/LANDING.md).
    var iconURL: String?
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64

    /// `TEAMID.bundle.id` for iOS apps.
    var appID: String? {
        guard let teamID, let bundleID else { return nil }
        return "\(teamID).\(bundleID)"
    }

    /// What the AASA or assetlinks file and resolve call this app: the appID, or the package name.
    var platformIdentifier: String { appID ?? packageName ?? "" }

    var fingerprintsJSON: JSONValue {
        .array(fingerprints.map { JSONValue.object(["value": .string($0.value), "label": .optional($0.label)]).compacted })
    }

    var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "id", value: .uuid(id)),
            JSONMember(key: "platform", value: .string(platform.rawValue)),
            JSONMember(key: "name", value: .string(name)),
        ]
        switch platform {
        case .ios:
            members += [
                JSONMember(key: "teamId", value: .optional(teamID)),
                JSONMember(key: "bundleId", value: .optional(bundleID)),
                JSONMember(key: "appId", value: .optional(appID)),
                JSONMember(key: "appStoreId", value: .optional(appStoreID)),
                JSONMember(key: "customScheme", value: .optional(customScheme)),
            ]
        case .android:
            members += [
                JSONMember(key: "packageName", value: .optional(packageName)),
                JSONMember(key: "sha256CertFingerprints", value: fingerprintsJSON),
                JSONMember(key: "playStoreUrl", value: .optional(playStoreURL)),
                JSONMember(key: "customScheme", value: .optional(customScheme)),
            ]
        }
        members += [
            JSONMember(key: "primaryDomain", value: .optional(primaryDomain)),
            JSONMember(key: "iconUrl", value: .optional(iconURL)),
            JSONMember(key: "createdAt", value: .timestamp(createdAt)),
            JSONMember(key: "updatedAt", value: .timestamp(updatedAt)),
        ]
        return JSONValue.object(members).compacted
    }

    var auditID: String { id.canonicalText }
}
