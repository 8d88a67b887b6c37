// What the caller may do, as /openapi.json says: an operation's `x-linkd-roles` (the roles allowed) and its key
// scope (`security`), against whoami's role and scope. Only what is allowed is offered; the server refuses anyway.
export const roles = ['viewer', 'editor', 'admin', 'owner'];
const scopes = ['read', 'write', 'admin'];

export function permissions(doc, whoami) {
  const scope = whoami.scope || whoami.key?.scope || 'read';
  const role = whoami.role || roles[scopes.indexOf(scope)];
  const op = (method, path) => doc?.paths?.[path]?.[method.toLowerCase()];
  /** The roles allowed to call it: its `x-linkd-roles`, or from its scope (a server without roles). */
  const allowed = (o) => o['x-linkd-roles'] || roles.slice(scopes.indexOf(o.security?.[0]?.bearerAuth?.[0] || 'read'));
  const scoped = (o) => scopes.indexOf(scope) >= scopes.indexOf(o.security?.[0]?.bearerAuth?.[0] || 'read');
  return {
    scope, role,
    /** Whether the server has the operation (a path of the API document, with `method`). */
    has: (method, path) => (doc ? !!op(method, path) : method === 'GET'),
    /** Whether the caller may call it: it exists, its roles hold the caller's and its scope is within the key's. */
    can(method, path) {
      const o = op(method, path);
      if (!doc) return method === 'GET' || scope !== 'read';
      return !!o && allowed(o).includes(role) && scoped(o);
    },
    /** Why `what` is not offered: "Managing keys needs an admin key; this one is a read key." */
    needs(what, method, path) {
      const o = op(method, path);
      if (!o) return `${what} is not available on this server.`;
      const needed = o.security[0].bearerAuth[0];
      if (!scoped(o)) return `${what} needs ${needed === 'admin' ? 'an' : 'a'} ${needed} key; this one is a ${scope} key.`;
      return `${what} needs the ${allowed(o)[0]} role; you act as ${role} in ${whoami.workspace.name}.`;
    },
  };
}
