// The way in: email and password (POST /v1/sessions sets the session cookie), single sign-on (the workspace's
// identity provider, through GET /v1/sso/start), a forgotten password (a reset link), or an API key kept in the tab.
// A server without sign-in (no /v1/sessions in its API document) shows the key form only, as before people.
import { h, append, field, form, input, errorNotice, replace } from '../dom.js';
import { call, session, enc } from '../api.js';

export async function render(view, context) {
  const has = (method, path) => !!context.doc?.paths?.[path]?.[method];
  const people = has('post', '/v1/sessions');
  const panel = h('div', { class: 'sign-in' });
  append(view, [h('h1', {}, 'Sign in to linkd'), context.message ? errorNotice(context.message) : null, panel]);
  const choices = (...others) => h('div', { class: 'actions sign-in-choices' }, others.map(([label, show, id]) => {
    const button = h('button', { type: 'button', class: 'secondary', id }, label);
    button.addEventListener('click', show);
    return button;
  }));
  const password = () => [['Sign in with email and password', showPassword, 'use-password']];
  const sso = has('get', '/v1/sso/start') ? [['Sign in with SSO', showSSO, 'use-sso']] : [];
  const key = [['Use an API key instead', showKey, 'use-key']];

  function showPassword() {
    const email = input({ type: 'email', autocomplete: 'username', required: true, name: 'email' });
    const secret = input({ type: 'password', autocomplete: 'current-password', required: true, name: 'password' });
    const signIn = form('Sign in', [field('Email', email, { pointer: '/email' }), field('Password', secret, { pointer: '/password' })],
      'Sign in', async () => {
        session.clear();
        try {
          await call('POST', '/v1/sessions', { body: { email: email.value.trim(), password: secret.value } });
        } catch (error) {
          if (error.status === 404) { showKey(); throw error; }
          secret.value = '';
          throw error;
        }
        await context.start();
      });
    const forgot = has('post', '/v1/password-resets') ? resetForm(email) : null;
    replace(panel, signIn, choices(...sso, ...key), forgot);
    email.focus();
  }

  function showSSO() {
    const name = input({ autocomplete: 'organization', required: true, spellcheck: 'false' });
    replace(panel, form('Sign in with SSO', [
      h('p', {}, 'Your company\'s identity provider signs you in to its linkd workspace.'),
      field('Workspace', name, { pointer: '', hint: 'The workspace\'s name, as an owner set it up (acme).' }),
    ], 'Continue', async () => {
      if (!name.value.trim()) throw new Error('Type the workspace\'s name.');
      location.assign(`/v1/sso/start?workspace=${enc(name.value.trim())}`);
    }), choices(...password(), ...key));
    name.focus();
  }

  function showKey() {
    const secret = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
    replace(panel, form(people ? 'Sign in with an API key' : 'Sign in', [
      h('p', {}, 'Paste an API key (', h('code', {}, 'linkd keys create --workspace NAME --scope admin'),
        '). It is kept in this tab only (sessionStorage) and sent as a Bearer header.'),
      field('API key', secret, { pointer: '' }),
    ], 'Sign in', async () => {
      session.key = secret.value.trim();
      try {
        await context.start();
      } catch (error) {
        session.clear();
        throw error;
      }
    }), people ? choices(...password(), ...sso) : null);
    secret.focus();
  }

  if (people) showPassword();
  else showKey();
}

/** "Forgot your password?": POST /v1/password-resets, answered the same whether or not the account exists. */
function resetForm(signInEmail) {
  const email = input({ type: 'email', autocomplete: 'username', name: 'reset-email' });
  const reset = form('Reset your password', [
    field('Email', email, { pointer: '/email', hint: 'A link to set a new password is mailed when the server sends mail; else ask an owner.' }),
  ], 'Send a reset link', async (element) => {
    await call('POST', '/v1/password-resets', { body: { email: email.value.trim() } });
    element.say('If an account has this email, a link to set a new password is on its way.');
  });
  const details = h('details', { class: 'forgot' }, h('summary', {}, 'Forgot your password?'), reset);
  details.addEventListener('toggle', () => { if (details.open && !email.value) email.value = signInEmail.value; });
  return details;
}
