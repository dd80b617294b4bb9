/*
 * Script of the pages mailed links open (server/core/http/link-pages.ts): /invite/<token> and
 * /verify-email?token=. It reads what to do from <main data-action data-service data-token data-app>
 * and calls the service's JSON API on the same origin:
 *   invite  (agents)  GET /api/auth/me (signed in by cookie?) -> POST /api/workspace/invitations/accept {token}
 *                     POST /api/auth/register {email, password, name?, invite}
 *                     POST /api/auth/login {email, password, code?} -> accept with the answered token
 *   invite  (studio)  POST /api/auth/register {email, password, workspace?, invite}
 *                     POST /api/auth/login {email, password} -> accept with the answered token
 *   verify  (agents)  POST /api/auth/verify {token}
 */
(function () {
  'use strict';
  var page = document.getElementById('page');
  if (!page) return;
  var action = page.getAttribute('data-action');
  var service = page.getAttribute('data-service');
  var token = page.getAttribute('data-token') || '';
  var appPath = page.getAttribute('data-app') || '/';
  var statusBox = document.getElementById('status');

  function $(id) {
    return document.getElementById(id);
  }
  function value(id) {
    var el = $(id);
    return el ? String(el.value || '').trim() : '';
  }
  function show(ok, ja, en, detail) {
    statusBox.hidden = false;
    statusBox.className = 'status ' + (ok ? 'ok' : 'err');
    statusBox.textContent = '';
    var p = document.createElement('p');
    p.textContent = ja;
    statusBox.appendChild(p);
    var e = document.createElement('p');
    e.className = 'en';
    e.lang = 'en';
    e.textContent = en + (detail ? ' (' + detail + ')' : '');
    statusBox.appendChild(e);
  }
  function done(ja, en) {
    show(true, ja, en);
    var a = document.createElement('a');
    a.href = appPath;
    a.textContent = 'アプリを開く / Open the app';
    statusBox.appendChild(a);
    var sections = ['signed-in', 'register', 'login', 'verify'];
    for (var i = 0; i < sections.length; i++) if ($(sections[i])) $(sections[i]).hidden = true;
  }
  function busy(on) {
    var buttons = document.getElementsByTagName('button');
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = on;
  }
  function api(method, path, body, bearer) {
    var headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (bearer) headers.Authorization = 'Bearer ' + bearer;
    return fetch(path, { method: method, headers: headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) }).then(function (res) {
      return res
        .json()
        .catch(function () {
          return {};
        })
        .then(function (data) {
          return { status: res.status, ok: res.ok, body: data || {} };
        });
    });
  }
  function failed(r) {
    var msg = r && r.body && typeof r.body.error === 'string' ? r.body.error : 'HTTP ' + (r ? r.status : '?');
    show(false, 'うまくいきませんでした。内容を確認してもう一度お試しください。', 'That did not work.', msg);
  }
  function offline() {
    show(false, 'サーバーに接続できませんでした。時間をおいてもう一度お試しください。', 'Could not reach the server. Please try again later.');
  }
  function joined() {
    done('ワークスペースに参加しました。', 'You have joined the workspace.');
  }
  function accept(bearer) {
    return api('POST', '/api/workspace/invitations/accept', { token: token }, bearer).then(function (r) {
      if (r.ok) joined();
      else failed(r);
    });
  }

  if (action === 'invite') {
    if (service === 'agents') {
      // Signed in already (session cookie)? Offer to accept as that account.
      api('GET', '/api/auth/me')
        .then(function (r) {
          if (!r.ok || !r.body.user) return;
          $('signed-in').hidden = false;
          $('signed-in-as').textContent = 'ログイン中 / Signed in as: ' + String(r.body.user.email || '');
        })
        .catch(function () {});
    }
    if ($('accept'))
      $('accept').addEventListener('click', function () {
        busy(true);
        accept(undefined)
          .catch(offline)
          .then(function () {
            busy(false);
          });
      });
    $('register-form').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var body = { email: value('reg-email'), password: $('reg-password').value, invite: token };
      if (service === 'agents' && value('reg-name')) body.name = value('reg-name');
      if (service === 'studio' && value('reg-workspace')) body.workspace = value('reg-workspace');
      busy(true);
      api('POST', '/api/auth/register', body)
        .then(function (r) {
          if (r.ok) joined();
          else failed(r);
        })
        .catch(offline)
        .then(function () {
          busy(false);
        });
    });
    $('login-form').addEventListener('submit', function (ev) {
      ev.preventDefault();
      var body = { email: value('login-email'), password: $('login-password').value };
      if (service === 'agents' && value('login-code')) body.code = value('login-code');
      busy(true);
      api('POST', '/api/auth/login', body)
        .then(function (r) {
          if (!r.ok || typeof r.body.token !== 'string') return failed(r);
          return accept(r.body.token);
        })
        .catch(offline)
        .then(function () {
          busy(false);
        });
    });
  } else if (action === 'verify') {
    $('verify').addEventListener('click', function () {
      busy(true);
      api('POST', '/api/auth/verify', { token: token })
        .then(function (r) {
          if (r.ok) done('メールアドレスを確認しました: ' + String(r.body.email || ''), 'Your email address is confirmed: ' + String(r.body.email || ''));
          else failed(r);
        })
        .catch(offline)
        .then(function () {
          busy(false);
        });
    });
  }
})();
