// The pages of the one-time links linkd prints or mails: `#/password?token=` sets a password (POST /v1/password:
// the first person's link from `linkd users create`, or a reset) and `#/invitation?token=` accepts an invitation
// (POST /v1/invitations/accept, which signs the person in). Each token is used once; the page drops it from the
// address once it worked, so it stays in no history entry.
import { h, field, form, input, notice } from '../dom.js';
import { call } from '../api.js';

export async function render(view, context) {
  const token = context.query.get('token');
  const invitation = view.dataset.view === 'invitation';
  view.append(h('h1', {}, invitation ? 'Join a workspace' : 'Set your password'));
  if (!token) {
    view.append(notice('error', 'This link has no token: open the whole link as it was given to you.'));
    return;
  }
  const password = input({ type: 'password', autocomplete: 'new-password', name: 'password' });
  const again = input({ type: 'password', autocomplete: 'new-password', name: 'password-again' });
  const hint = 'At least 12 characters, and not your email.';
  const checked = () => {
    if (password.value !== again.value) {
      const error = new Error('The two passwords differ.');
      error.problem = { title: 'The two passwords differ.', errors: [{ pointer: '/password-again', detail: 'Type the same password twice.' }] };
      throw error;
    }
    return password.value;
  };
  const done = (...text) => { history.replaceState(null, '', '#/'); view.replaceChildren(view.firstChild, notice('ok', text)); };

  if (!invitation) {
    view.append(form('Set a password', [
      field('New password', password, { pointer: '/password', hint }), field('Repeat it', again, { pointer: '/password-again' }),
    ], 'Set password', async () => {
      await call('POST', '/v1/password', { body: { token, password: checked() } });
      done('Your password is set. ', h('a', { href: '#/overview', id: 'to-sign-in' }, context.whoami ? 'Open the console' : 'Sign in'), '.');
    }));
    password.focus();
    return;
  }

  // Signed in already (a session): accepting adds the workspace to this person's; else a name and a password.
  const signedIn = context.via === 'session';
  const name = input({ autocomplete: 'name', name: 'name' });
  view.append(form('Accept the invitation', signedIn
    ? [h('p', {}, 'You are signed in as ', h('b', {}, context.whoami.person.email), '; accepting adds the workspace to yours.')]
    : [h('p', {}, 'New to linkd: your name and a password. Already have an account with the invited email: its password.'),
      field('Name', name, { pointer: '/name', hint: 'Optional.' }),
      field('Password', password, { pointer: '/password', hint }), field('Repeat it', again, { pointer: '/password-again' })],
  'Accept', async () => {
    const body = { token };
    if (!signedIn) {
      body.password = checked();
      if (name.value.trim()) body.name = name.value.trim();
    }
    await call('POST', '/v1/invitations/accept', { body });
    done('Welcome.');
    history.replaceState(null, '', '#/overview');
    await context.start();
  }));
}
