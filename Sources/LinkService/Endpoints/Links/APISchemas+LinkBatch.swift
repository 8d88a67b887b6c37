import LinkKit

/// The components of `POST /v1/links/bulk` and `POST /v1/links/import` (`OpenAPIDocument`).
extension APISchemas {
    static let linkBatch: [(name: String, schema: Schema)] = [
        (
            "LinkBulkRequest",
            Schema.array(.ref("LinkCreate"), maxItems: LinkBulkBody.maxItems)
                .described("The links to create, each as `POST /v1/links` takes it.")
        ),
        (
            "LinkBulkAnswer",
            Schema.object(
                [
                    .required("created", Schema.integer(minimum: 0)),
                    .required("refused", Schema.integer(minimum: 0)),
                    .required(
                        "results",
                        Schema.array(Schema.oneOf([.ref("Link"), .ref("BatchItemFailure")])).described(
                            "One result per item, in order: the link created, or why it was refused (pointers under `/<index>`).")),
                ], closed: false)
        ),
        // A component, as union members are (generators write a model per component).
        (
            "BatchItemFailure",
            Schema.object([.required("error", .ref("Problem"))], closed: false)
                .described("An item of a batch that was refused, and why.")
        ),
        ("LinkImportFile", Schema.string.described("A CSV file (`text/csv`) with its header row.")),
        (
            "LinkImportReport",
            Schema.object(
                [
                    .required("format", Schema.enumeration(LinkImportFile.Format.allCases.map(\.rawValue))),
                    .required("dryRun", Schema.boolean),
                    .required("rows", Schema.integer(minimum: 0).described("Data rows read (blank ones are skipped).")),
                    .required("created", Schema.integer(minimum: 0)),
                    .required("wouldCreate", Schema.integer(minimum: 0).described("In a dry run: the rows that would be created.")),
                    .required("refused", Schema.integer(minimum: 0)),
                    .required("skipped", Schema.integer(minimum: 0).described("Rows with nothing to import (Dub's domain root links).")),
                    .required(
                        "ignoredColumns",
                        Schema.array(
                            Schema.object(
                                [
                                    .required("column", Schema.integer(minimum: 1)),
                                    .required("name", Schema.string),
                                ], closed: false)
                        ).described("Header cells naming no column (or one named before): not read.")),
                    .required(
                        "results",
                        Schema.array(
                            Schema.object(
                                [
                                    .required(
                                        "row",
                                        Schema.integer(minimum: 1).described("The row's record number in the file (the header is 1).")),
                                    .required("status", Schema.enumeration(["created", "would-create", "refused", "skipped"])),
                                    .optional(
                                        "link",
                                        Schema.anyObject.described(
                                            "The link created (or, in a dry run, as it would be: without id or timestamps).")),
                                    .optional("problems", Schema.array(.ref("ImportProblem"))),
                                    .optional("reason", Schema.string.described("Why a skipped row was not imported.")),
                                ], closed: false)
                        ).described("One result per data row, in order.")),
                ], closed: false)
        ),
        // A component: inline, generators would name it `Problem` and rename the component that is.
        (
            "ImportProblem",
            Schema.object(
                [
                    .required("column", Schema.string.described("The column at fault; empty for the row as a whole.")),
                    .required("detail", Schema.string),
                ], closed: false
            ).described("Why a row was refused.")
        ),
    ]
}
