import CCurl
import Glibc

/// One transfer's `AddressPolicy` inside libcurl (`CURLOPT_OPENSOCKETDATA`, `CURLOPT_PREREQDATA`): judges each
/// address a socket is opened for, before it connects, and each connection, new or reused, before the request
/// goes out on it; keeps the refusals for the failure to name. Whatever gave the address (DNS, a
/// `CURLOPT_RESOLVE` override, a literal in the URL), this is the address connected to.
final class AddressGuard {
    let policy: AddressPolicy
    /// Why each refused address was refused, in order.
    private(set) var refusals: [String] = []

    init(policy: AddressPolicy) {
        self.policy = policy
    }

    /// Whether a connection to `address` may be made; a refusal is noted.
    func admits(_ address: IPAddress, port: Int) -> Bool {
        guard let refusal = policy.refusal(for: address) else { return true }
        refusals.append("not connecting to \(address) port \(port): \(refusal)")
        return false
    }

    func refuse(_ reason: String) {
        refusals.append(reason)
    }
}

/// `CURLOPT_OPENSOCKETFUNCTION`: the socket for `address` when the transfer's `AddressGuard` admits it, else
/// `CURL_SOCKET_BAD`, which libcurl takes as this address failing to connect (it tries the name's next address,
/// if any). Nothing is sent to a refused address, not even a SYN. A plain function reaching Swift state only
/// through `context` (docs/field-notes.md §2).
func addressGuardOpenSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype,
    _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let context, let address else { return CURL_SOCKET_BAD }
    let guarding = Unmanaged<AddressGuard>.fromOpaque(context).takeUnretainedValue()
    guard purpose == CURLSOCKTYPE_IPCXN else {
        guarding.refuse("libcurl asked for a socket that is not an outbound connection")
        return CURL_SOCKET_BAD
    }
    // `addr` is the start of a buffer of `addrlen` bytes (a sockaddr_in6 is longer than the struct sockaddr the
    // field is declared as), so it is read through a raw pointer.
    let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
    let socketAddress = UnsafeRawPointer(address) + offset
    guard let (ip, port) = IPAddress.of(socketAddress: socketAddress, length: Int(address.pointee.addrlen)) else {
        guarding.refuse("not connecting to an address that is neither IPv4 nor IPv6")
        return CURL_SOCKET_BAD
    }
    guard guarding.admits(ip, port: port) else { return CURL_SOCKET_BAD }
    let socketType = address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue)
    return socket(address.pointee.family, socketType, address.pointee.protocol)
}

/// `CURLOPT_PREREQFUNCTION`: refuses (`CURL_PREREQFUNC_ABORT`, so no request is sent) a connection whose peer the
/// guard does not admit. A new connection was judged when its socket was opened; this catches one reused from
/// the handle's cache, opened for an earlier transfer.
func addressGuardPrerequest(
    _ context: UnsafeMutableRawPointer?, _ primaryIP: UnsafeMutablePointer<CChar>?,
    _ localIP: UnsafeMutablePointer<CChar>?, _ primaryPort: Int32, _ localPort: Int32
) -> Int32 {
    guard let context else { return CURL_PREREQFUNC_ABORT }
    let guarding = Unmanaged<AddressGuard>.fromOpaque(context).takeUnretainedValue()
    guard let primaryIP, let ip = IPAddress(String(cString: primaryIP)) else {
        guarding.refuse("the connection's peer address is unknown")
        return CURL_PREREQFUNC_ABORT
    }
    return guarding.admits(ip, port: Int(primaryPort)) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}
