extension EndpointGroup {
    /// The address of one of this group's resources, its `Location`: the path of the endpoint `operationID` (the
    /// resource's own route, as declared once in `endpoints`) printed with `values` (`Endpoint.printing`).
    func location(_ operationID: String, _ values: [PathParameter: String]) -> String {
        guard let endpoint = endpoints.first(where: { $0.operationID == operationID }) else {
            preconditionFailure("no endpoint \(operationID) in \(Self.self)")
        }
        return Endpoint.printing(endpoint.path, values)
    }
}
