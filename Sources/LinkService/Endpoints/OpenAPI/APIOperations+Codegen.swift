extension APIOperations {
    /// `/v1/apps/{id}/codegen/android-manifest` (docs/ANDROID.md).
    static let codegenAndroid: [APIOperation] = [
        APIOperation(.GET, "/v1/apps/{id}/codegen/android-manifest", "getAndroidManifest",
                     "The intent filters an Android app's manifest needs for its link domains", tag: "Apps", access: .key(.read),
                     description: """
                         One `<intent-filter android:autoVerify="true">` per domain whose rules name the app, its paths written as \
                         `path`, `pathPrefix`, `pathPattern` or `pathAdvancedPattern` so Android claims what the rules claim. XML \
                         comments name each rule and say where Android decides differently (exclusions, query and fragment \
                         constraints, patterns Android cannot express exactly). The ETag changes with the content. \
                         422 for an iOS app, 409 when no rule names the app.
                         """,
                     conditional: true, success: .content(200, mediaType: "application/xml", schema: .string), errors: [409, 422]),
    ]
}
