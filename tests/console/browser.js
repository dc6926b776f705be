// minipulumi console in a real browser: Debian's chromium, headless, driven
// by puppeteer-core (tests/console/package-lock.json; it downloads no
// browser). Run by browser.sh against a running `minipulumi console`:
//
//   node browser.js URL HOSTILE_NAME LONG_NAME SECRET...
//
// It walks as a user does: the stacks page, a stack, a resource, the
// graph and a node of it, checking what each page shows; every name and
// value of the stack is hostile (browser.sh's program), so each page also
// checks that none of their scripts ran (window.__pwned, a dialog) and
// that no response holds a secret's plain text. Then the history, an
// update's page (a timeline bar per step) and, with MP_LIVE_CMD (a slow
// `up` it starts), a running update's page followed with no reload. With
// MP_SCREENSHOTS=DIR it saves the stack, resource, graph and update pages
// as PNGs into DIR.
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [url, hostile, longName, ...secrets] = process.argv.slice(2);
const shots = process.env.MP_SCREENSHOTS || '';
const chromium = process.env.MP_CHROMIUM || '/usr/bin/chromium';
const timeout = 60000 * Number(process.env.MINIPULUMI_TEST_TIMEOUT_MULTIPLIER || 1);

let failures = 0;
function check(ok, what) {
  if (!ok) {
    failures++;
    console.error('FAIL: ' + what);
  }
}

async function main() {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    // CI runs as root, where chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    protocolTimeout: timeout,
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(timeout);
    page.setDefaultNavigationTimeout(timeout);
    await page.setViewport({width: 1280, height: 900});
    const dialogs = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    const bodies = [];
    page.on('response', (r) => {
      bodies.push(r.text().then((t) => [r.url(), t], () => [r.url(), '']));
    });

    // A page is safe when no script of the stack's ran on it.
    async function safe(where) {
      const pwned = await page.evaluate(() => window.__pwned);
      check(pwned === undefined, where + ': a hostile script ran (window.__pwned=' + pwned + ')');
      check(dialogs.length === 0, where + ': a dialog opened: ' + dialogs.join(' | '));
      const bad = await page.evaluate(() =>
        [...document.querySelectorAll('[href]')]
            .map((a) => a.getAttribute('href') || a.getAttribute('xlink:href'))
            .filter((h) => /^\s*javascript:/i.test(h)));
      check(bad.length === 0, where + ': a javascript: link: ' + bad);
      const scripts = await page.evaluate(() =>
        [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')));
      check(scripts.length === 1 && scripts[0] === '/static/console.js',
            where + ': scripts other than the console\'s: ' + JSON.stringify(scripts));
    }
    async function shot(name) {
      if (!shots) return;
      await page.screenshot({path: path.join(shots, name), fullPage: false});
    }
    const texts = (sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent));

    // 1. The stacks page (the printed URL: the token goes into a cookie).
    await page.goto(url, {waitUntil: 'load'});
    await safe('stacks');
    const rows = await page.$$eval('table.stacks tbody tr',
        (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    check(rows.length === 1 && rows[0][0] === 'proj' && rows[0][1] === 'dev',
          'stacks: one row proj/dev: ' + JSON.stringify(rows));
    const owner = await page.$eval('table.stacks tbody tr', (tr) => tr.textContent);
    check(owner.includes('<img src=x onerror="window.__pwned=1">'),
          'stacks: the hostile tag shows as text: ' + owner);

    // 2. The stack, by its link.
    await Promise.all([page.waitForNavigation(), page.click('a[href="/stack/proj/dev"]')]);
    await safe('stack');
    check((await page.$eval('h1', (h) => h.textContent)) === 'proj/dev', 'stack: its title');
    const links = await texts('ul.restree a');
    for (const want of ['proj-dev', 'default', 'child', 'web', hostile, longName]) {
      check(links.includes(want), 'stack: the resource link "' + want.slice(0, 40) + '": ' +
            JSON.stringify(links).slice(0, 400));
    }
    const body = await page.$eval('main', (m) => m.textContent);
    check(body.includes('[secret]'), 'stack: a secret output shows as [secret]');
    check(body.includes('protected'), 'stack: the protect flag');
    check(body.includes('<b onmouseover="window.__pwned=2">bold</b>'),
          'stack: the hostile config value shows as text');
    await shot('console-stack.png');

    // 3. A resource: the hostile one, by its link in the tree.
    const link = await page.evaluateHandle((name) =>
      [...document.querySelectorAll('ul.restree a')].find((a) => a.textContent === name), hostile);
    await Promise.all([page.waitForNavigation(), link.click()]);
    await safe('resource');
    const res = await page.$eval('main', (m) => m.textContent);
    check(res.includes('urn:pulumi:dev::proj::test:index:Resource::' + hostile),
          'resource: its URN as text');
    check(res.includes('javascript:window.__pwned=3'), 'resource: the javascript: value as text');
    check(res.includes('[secret]'), 'resource: the secret input as [secret]');
    check(res.includes('child'), 'resource: its child');
    await shot('console-resource.png');
    const resourceUrl = page.url();

    // 4. Back to the stack, then its graph.
    await Promise.all([page.waitForNavigation(), page.click('nav.crumbs a[href="/stack/proj/dev"]')]);
    await Promise.all([page.waitForNavigation(), page.click('a[href="/stack/proj/dev/graph"]')]);
    await safe('graph');
    const nodes = await texts('div.graph svg g.node text');
    for (const want of ['proj-dev', 'default', 'child', 'web', hostile, longName]) {
      check(nodes.includes(want), 'graph: the node "' + want.slice(0, 40) + '": ' +
            JSON.stringify(nodes).slice(0, 400));
    }
    check(await page.$('p.partial') === null, 'graph: drawn whole');
    const edges = await page.$$eval('div.graph svg g.edge', (es) => es.length);
    check(edges >= 5, 'graph: its edges (' + edges + ')');
    const svgs = await page.$$eval('svg', (s) => s.length);
    check(svgs === 1, 'graph: one svg element (a name did not close it): ' + svgs);
    await shot('console-graph.png');
    // A node links to its resource's page.
    const node = await page.evaluateHandle(() =>
      [...document.querySelectorAll('div.graph svg a')]
          .find((a) => a.textContent.trim() === 'child'));
    check(node.asElement() !== null, 'graph: the node child is a link');
    if (node.asElement()) {
      await Promise.all([page.waitForNavigation(), node.asElement().click()]);
      await safe('graph node');
      check(decodeURIComponent(page.url()).includes('/resource?urn=urn:pulumi:dev::proj::'),
            'graph: the node opens the resource page: ' + page.url());
      check((await page.$eval('main', (m) => m.textContent)).includes('test:index:Resource::child'),
            'graph: the child\'s page');
    }
    // Drawn in part, and the page says so.
    await page.goto(new URL('/stack/proj/dev/graph?limit=2', url).href, {waitUntil: 'load'});
    await safe('graph part');
    const part = await page.$eval('p.partial', (p) => p.textContent).catch(() => '');
    check(/has \d+ resources: the graph shows only the first 2/.test(part),
          'graph: says it is partial: ' + part);
    check((await page.$$eval('div.graph svg g.node', (g) => g.length)) === 2,
          'graph: two nodes drawn');

    // 5. The history, then the second update's page: a row per step with
    // its diff, and a bar per step in the timeline.
    await page.goto(new URL('/stack/proj/dev/history', url).href, {waitUntil: 'load'});
    await safe('history');
    const updates = await page.$$eval('a[href^="/stack/proj/dev/update/"]',
        (as) => as.map((a) => a.getAttribute('href')));
    check(updates.includes('/stack/proj/dev/update/1') && updates.includes('/stack/proj/dev/update/2'),
          'history: links to updates 1 and 2: ' + JSON.stringify(updates));
    await Promise.all([page.waitForNavigation(),
                       page.click('a[href="/stack/proj/dev/update/2"]')]);
    await safe('update');
    const stepRows = await page.$$eval('table.steps tr.step', (t) => t.length);
    const barCount = await page.$$eval('svg.timeline rect.bar', (r) => r.length);
    check(stepRows >= 3 && barCount === stepRows,
          'update: a bar per step (' + barCount + ' bars, ' + stepRows + ' steps)');
    const diffs = await texts('pre.diff');
    check(diffs.some((d) => d.includes('v')), 'update: the diffs of its steps: ' +
          JSON.stringify(diffs).slice(0, 300));
    const msg = await page.$eval('main', (m) => m.textContent);
    check(msg.includes('</td><script>window.__pwned=5</script>'),
          'update: the hostile message shows as text');
    await shot('console-update.png');

    // 6. Live: a slow third update started now, in another process; its
    // page, opened while it runs, shows its steps start and end with no
    // reload (the marker set on the page stays).
    if (process.env.MP_LIVE_CMD) {
      const child = require('child_process').spawn('bash', ['-c', process.env.MP_LIVE_CMD],
                                                   {stdio: 'ignore'});
      const ended = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
      const liveUrl = new URL('/stack/proj/dev/update/3', url).href;
      let live = false;
      const deadline = Date.now() + timeout;
      while (!live && Date.now() < deadline) {
        const r = await page.goto(liveUrl, {waitUntil: 'load'});
        live = r.status() === 200 && (await page.$('[data-live]')) !== null;
        if (!live) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      check(live, 'live: the third update\'s page while it runs');
      if (live) {
        await safe('live update');
        await page.evaluate(() => { window.__stayed = 1; });
        const count = () => page.$$eval('table.steps tr.step', (t) => t.length);
        const running = () => page.$$eval('table.steps span.status.running', (t) => t.length);
        const rows0 = await count();
        const running0 = await running();
        await page.waitForFunction(() => !document.querySelector('[data-live]'), {timeout});
        await new Promise((resolve) => setTimeout(resolve, 500));
        const rows1 = await count();
        check(await page.evaluate(() => window.__stayed) === 1, 'live: the page was reloaded');
        check(rows1 > rows0 || (running0 > 0 && await running() === 0),
              'live: no step appeared or ended on the page (' + rows0 + ' rows, ' + running0 +
              ' running, then ' + rows1 + ' rows)');
        check(await page.$$eval('svg.timeline rect.bar', (r) => r.length) === rows1,
              'live: a bar per step at the end');
        check(await running() === 0, 'live: steps still running at the end');
        await safe('live update, ended');
      }
      check(await ended === 0, 'live: the third up failed');
    }

    // Escaping alone, without the Content-Security-Policy's help: with the
    // policy bypassed, an unescaped script or handler would run.
    await page.setBypassCSP(true);
    for (const p of ['/', '/stack/proj/dev', resourceUrl, '/stack/proj/dev/graph',
                     '/stack/proj/dev/history']) {
      await page.goto(new URL(p, url).href, {waitUntil: 'load'});
      await page.hover('main').catch(() => {});
      await safe('without CSP: ' + p);
    }
    await page.setBypassCSP(false);

    // The JSON API, with the browser's cookie (the pages' CSP lets no
    // script of a page fetch anything).
    const cookie = (await page.cookies()).map((c) => c.name + '=' + c.value).join('; ');
    const api = {};
    for (const p of ['/api/stacks', '/api/stack/proj/dev', '/api/stack/proj/dev/graph']) {
      const r = await fetch(new URL(p, url).href, {headers: {Cookie: cookie}});
      check(r.status === 200, p + ': status ' + r.status);
      api[p] = await r.text();
    }
    const graph = JSON.parse(api['/api/stack/proj/dev/graph']);
    check(graph.nodes === nodes.length && graph.partial === false,
          'api graph: ' + JSON.stringify(graph).slice(0, 200));

    // No response carried a secret.
    for (const [u, t] of await Promise.all(bodies)) {
      for (const s of secrets) check(!t.includes(s), 'the secret ' + s + ' in ' + u);
    }
    for (const [p, t] of Object.entries(api)) {
      for (const s of secrets) check(!t.includes(s), 'the secret ' + s + ' in ' + p);
    }
    console.log('pages checked, responses searched: ' + bodies.length);
  } finally {
    await browser.close();
  }
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
  console.error('FAIL: ' + (e && e.stack || e));
  process.exit(1);
});
