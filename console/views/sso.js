// Single sign-on (OpenID Connect) of the workspace, for its owners: the provider (issuer, client ID, the secret,
// write-only), who may come (allowed email domains), the role of people created on first sign-in, the claim whose
// groups map to roles, and whether the workspace requires SSO (no password sign-in for its members). Saving sends
// every member read back, with the edited ones changed: a member this form does not show is kept.
import { h, field, form, input, select, checkbox, tracked, notice, copyButton, parseLines, formatLines } from '../dom.js';
import { call, get } from '../api.js';
import { roles } from '../roles.js';

// Members the server answers but never takes back.
const readOnly = ['clientSecret', 'clientSecretSet', 'hasClientSecret', 'callbackUrl', 'redirectUri', 'createdAt', 'updatedAt', 'workspace'];

export async function render(view, context) {
  view.append(h('h1', {}, 'Single sign-on'));
  if (!context.can('GET', '/v1/sso')) {
    view.append(notice('warn', context.needs('Single sign-on', 'GET', '/v1/sso')));
    return;
  }
  let stored = null;
  try {
    stored = await get('/v1/sso');
  } catch (error) {
    if (error.status !== 404) throw error;
  }
  const callback = stored?.redirectUri || `${location.origin}/v1/sso/callback`;
  view.append(h('p', {}, 'Register linkd at your identity provider (Okta, Entra ID, Google, Keycloak…) as a web application with this redirect URI: ',
    h('code', { id: 'sso-callback' }, callback), ' ', copyButton(() => callback, 'Copy')),
  h('p', { class: 'muted' }, stored ? 'Single sign-on is set up.' : 'Single sign-on is not set up.'));
  const s = stored || {};
  const editable = context.can('PUT', '/v1/sso');
  const issuer = input({ type: 'url', value: s.issuer || '', placeholder: 'https://login.example.com', spellcheck: 'false' });
  const clientId = input({ value: s.clientId || '', spellcheck: 'false' });
  const secret = input({ type: 'password', autocomplete: 'new-password', value: '' });
  const domains = input({ value: (s.allowedDomains || []).join(', '), placeholder: 'example.com, example.org' });
  const defaultRole = select([['', 'nobody is added'], ...roles], s.defaultRole || '');
  const claim = input({ value: s.groupsClaim || '', placeholder: 'groups', spellcheck: 'false' });
  const groups = h('textarea', { rows: 4, spellcheck: 'false', value: formatLines(s.groupRoles), placeholder: 'linkd-admins = admin' });
  const required = checkbox(s.required);
  const edits = tracked({
    issuer: [[issuer], () => issuer.value.trim()],
    clientId: [[clientId], () => clientId.value.trim()],
    clientSecret: [[secret], () => secret.value],
    allowedDomains: [[domains], () => domains.value.split(/[\s,]+/).filter(Boolean)],
    defaultRole: [[defaultRole], () => defaultRole.value || null],
    groupsClaim: [[claim], () => claim.value.trim() || null],
    groupRoles: [[groups], () => parseLines(groups.value)],
    required: [[required], () => required.checked],
  });
  const settings = form('Identity provider', [
    h('div', { class: 'grid' },
      field('Issuer', issuer, { pointer: '/issuer', hint: 'The provider\'s issuer URL; linkd reads its discovery document.' }),
      field('Client ID', clientId, { pointer: '/clientId' }),
      field('Client secret', secret, { pointer: '/clientSecret',
        hint: stored ? 'Write-only: never shown. Leave empty to keep the stored one.' : 'Write-only: never shown again.' }),
      field('Allowed email domains', domains, { pointer: '/allowedDomains', hint: 'Comma-separated. People of these domains may come in.' }),
      field('Role of new people', defaultRole, { pointer: '/defaultRole', hint: 'Given to a person of an allowed domain at their first sign-in; "nobody": only existing members (and mapped groups) come in.' }),
      field('Groups claim', claim, { pointer: '/groupsClaim', hint: 'Optional: the ID token\'s claim listing the person\'s groups.' })),
    field('Groups to roles', groups, { pointer: '/groupRoles', hint: 'One a line: group = role. The highest role of a person\'s groups wins.' }),
    field('Require single sign-on', required, { pointer: '/required', hint: 'Members may no longer sign in with a password.' }),
  ], 'Save', async (element) => {
    const body = Object.fromEntries(Object.entries(s).filter(([name]) => !readOnly.includes(name)));
    Object.assign(body, edits.body());
    if (!secret.value) delete body.clientSecret;
    const { data } = await call('PUT', '/v1/sso', { body });
    Object.assign(s, data || body);
    secret.value = '';
    edits.reset();
    element.say('Saved.');
  }, { extraActions: stored && context.can('DELETE', '/v1/sso') ? [removeButton()] : [] });
  if (!editable) for (const control of settings.querySelectorAll('input, select, textarea, button')) control.disabled = true;
  if (!editable) settings.querySelector('.actions').hidden = true;
  view.append(settings);

  function removeButton() {
    const button = h('button', { type: 'button', class: 'danger', id: 'sso-remove' }, 'Turn off single sign-on');
    button.addEventListener('click', async () => {
      if (!confirm('Turn off single sign-on? People sign in with their passwords again.')) return;
      try { await call('DELETE', '/v1/sso'); view.replaceChildren(); await render(view, context); } catch (error) { alert(error.message); }
    });
    return button;
  }
}
