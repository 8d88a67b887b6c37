// Code: the generated router, glue and fixtures of an app (GET /v1/apps/{id}/codegen/{language}), with a copy button.
// A server without code generation answers 404 for the route (its detail names the path): the view says so.
import { h, field, select, notice, errorNotice, copyButton, pretty } from '../dom.js';
import { call, all, enc } from '../api.js';

const common = [['swift', 'Swift'], ['swift-glue', 'Swift glue'], ['kotlin', 'Kotlin'], ['kotlin-glue', 'Kotlin glue'], ['typescript', 'TypeScript'], ['fixtures', 'Fixtures']];
/** What each file is for (docs/CODEGEN.md). */
const router = 'The router: LinkDestination, LinkRouter.route and build, LinkInbox (every arriving link, held until the app is ready and, if needed, signed in; handed out once) and LinkDeferredClaim (the landing page\'s token, claimed once per install).';
const about = { swift: router, kotlin: router, typescript: router,
  'swift-glue': 'A second file beside Links.swift: SwiftUI onOpenURL and browsing-web activities, UIKit scenes (cold launch, continue, open URL contexts), notification responses, the pasteboard claim link.',
  'kotlin-glue': 'A second file beside Links.kt: LinkArrivals, which any activity attaches (its VIEW intents and a notification\'s link extra, handed out while it is started), the Play Install Referrer\'s claim, and the inbox\'s held links kept in SharedPreferences.',
  fixtures: 'URLs and resolve\'s answers, for the app\'s CI to run its router over.' };
/** Whose matching a generated file follows: the router table is built from the platform's own matcher (docs/CODEGEN.md). */
const semanticsOf = (app, language) => {
  if (language === 'android-manifest') return 'Intent filters for the app\'s manifest: what Android lets the app verify (docs/ANDROID.md).';
  const what = language === 'fixtures' ? 'These fixtures are resolve\'s answers' : language.endsWith('-glue') ? 'The router it calls decides' : 'This router decides';
  return app && app.platform === 'android'
    ? `${what} as Android does: the generated manifest's path attributes and assetlinks.json's dynamic rules, not the AASA file.`
    : `${what} as iOS does: the apple-app-site-association file's components, in order.`;
};
/** An Android app also gets the intent filters for its manifest. */
const languagesOf = (app) => (app && app.platform === 'android' ? [...common, ['android-manifest', 'Android manifest']] : common);

export async function render(view, context) {
  const apps = await all('/v1/apps?limit=200');
  view.append(h('h1', {}, 'Code'));
  if (!apps.length) { view.append(h('p', { class: 'muted' }, 'Register an app first.')); return; }
  const app = select(apps.map((a) => [a.id, `${a.name} (${a.platform})`]), context.query.get('app') || apps[0].id);
  let language = context.query.get('language') || 'swift';
  const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Language' });
  const panel = h('div', { role: 'tabpanel', id: 'code-panel', 'aria-live': 'polite' });
  view.append(h('p', { class: 'muted' }, 'A router generated from the app\'s rules and destinations: it decides like resolve, without the network.'),
    field('App', app), tabs, panel);

  let languages = common;
  function drawTabs() {
    languages = languagesOf(apps.find((a) => a.id === app.value));
    if (!languages.some(([k]) => k === language)) language = 'swift';
    tabs.replaceChildren(...languages.map(([key, title]) => {
      const tab = h('button', { type: 'button', role: 'tab', 'aria-selected': String(key === language), 'aria-controls': 'code-panel', 'data-language': key }, title);
      tab.addEventListener('click', () => { language = key; drawTabs(); load(); });
      tab.addEventListener('keydown', (event) => {
        const at = languages.findIndex(([k]) => k === language);
        const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
        if (!step) return;
        language = languages[(at + step + languages.length) % languages.length][0];
        drawTabs(); load();
        tabs.querySelector('[aria-selected="true"]').focus();
      });
      return tab;
    }));
  }

  async function load() {
    panel.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
    try {
      const { data, response } = await call('GET', `/v1/apps/${enc(app.value)}/codegen/${language}`, { accept: '*/*', text: true });
      const type = response.headers.get('Content-Type') || '';
      const text = type.includes('json') ? pretty(JSON.parse(data)) : data;
      const semantics = semanticsOf(apps.find((a) => a.id === app.value), language);
      panel.replaceChildren(h('p', { id: 'code-about' }, about[language] || ''), h('p', { id: 'code-semantics', class: 'muted' }, semantics),
        h('div', { class: 'actions' }, copyButton(() => text, 'Copy file')), h('pre', { id: 'code-text' }, h('code', {}, text)));
    } catch (error) {
      if (error.status === 404 && /\/codegen\//.test(error.problem?.detail || '/codegen/')) {
        panel.replaceChildren(notice('warn', h('span', { id: 'code-unavailable' },
          'This server does not generate code yet (GET /v1/apps/{id}/codegen/… answers 404). Upgrade linkd to get the routers.')));
      } else {
        panel.replaceChildren(errorNotice(error));
      }
    }
  }
  app.addEventListener('change', () => { drawTabs(); load(); });
  drawTabs();
  await load();
}
