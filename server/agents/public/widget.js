/*
 * Embeddable chat widget of the agent platform. One script tag puts an agent on any page:
 *   <script src="https://<host>/widget.js" data-agent="<publicId>" async></script>
 * Optional attributes: data-api (base address of the API, default: the script's origin),
 * data-poll-ms (how often operator replies are fetched while a person handles the chat, default 4000),
 * data-open="1" (open the panel at load).
 * It speaks only to the public widget API: GET /api/public/{id}, POST …/chat, POST …/lead, GET …/poll.
 * Plain browser JavaScript, no build step; the page can drive it through window.AgentWidget.
 */
(function () {
  'use strict';
  var script = document.currentScript || document.querySelector('script[data-agent]');
  if (!script) return;
  var publicId = script.getAttribute('data-agent');
  if (!publicId) return;
  var apiBase = (script.getAttribute('data-api') || new URL(script.src, location.href).origin).replace(/\/+$/, '');
  var pollMs = Math.max(250, Number(script.getAttribute('data-poll-ms')) || 4000);
  var MAX_CHARS = 4000;
  var storeKey = 'agent-widget:' + publicId;

  var TEXT = {
    ja: {
      welcome: 'こんにちは。{name}です。ご用件をお聞かせください。',
      open: 'チャットを開く', close: '閉じる', send: '送信', placeholder: 'メッセージを入力…', typing: '入力中…',
      error: '送信できませんでした。時間をおいてもう一度お試しください。', busy: 'ただいま混み合っています。{s}秒後にもう一度お試しください。',
      paused: '現在このチャットはご利用いただけません。', tooLong: 'メッセージは4000文字以内で入力してください。',
      operator: '担当者', leadTitle: 'ご連絡先を残してください', leadSend: '送信する', leadThanks: 'ありがとうございます。担当者よりご連絡いたします。',
      leadNeed: 'メールアドレスか電話番号を入力してください。', name: 'お名前', email: 'メールアドレス', phone: '電話番号', company: '会社名', powered: 'Powered by Agent Platform',
    },
    en: {
      welcome: "Hi! I'm {name}. How can I help you today?",
      open: 'Open chat', close: 'Close', send: 'Send', placeholder: 'Type your message…', typing: 'Typing…',
      error: 'The message could not be sent. Please try again in a moment.', busy: 'Too many messages right now. Please try again in {s} seconds.',
      paused: 'This chat is not available right now.', tooLong: 'Messages can hold at most 4000 characters.',
      operator: 'Team member', leadTitle: 'Leave your contact details', leadSend: 'Send', leadThanks: 'Thank you. Our team will get back to you.',
      leadNeed: 'Enter an email address or a phone number.', name: 'Name', email: 'Email', phone: 'Phone', company: 'Company', powered: 'Powered by Agent Platform',
    },
  };

  var state = load();
  var config = null;
  var t = TEXT.en;
  var ui = {};
  var pollTimer = null;
  var sending = false;

  function load() {
    try {
      var s = JSON.parse(localStorage.getItem(storeKey) || '{}');
      return { conversationId: s.conversationId || null, cursor: s.cursor || null, visitorId: s.visitorId || randomId() };
    } catch (e) {
      return { conversationId: null, cursor: null, visitorId: randomId() };
    }
  }
  function save() {
    try {
      localStorage.setItem(storeKey, JSON.stringify(state));
    } catch (e) {
      /* storage blocked (private mode, sandboxed frame): the chat still works for this page view */
    }
  }
  function randomId() {
    var a = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(a);
    return 'v_' + Array.prototype.map.call(a, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function url(path) {
    return apiBase + '/api/public/' + encodeURIComponent(publicId) + path;
  }
  function request(method, path, body) {
    return fetch(url(path), {
      method: method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
    }).then(function (res) {
      return res.text().then(function (txt) {
        var data = null;
        try { data = JSON.parse(txt); } catch (e) { data = null; }
        return { status: res.status, data: data, retryAfter: res.headers.get('Retry-After') };
      });
    });
  }
  function el(tag, attrs, children) {
    var n = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === 'text') n.textContent = attrs[k];
      else if (k.slice(0, 2) === 'on') n.addEventListener(k.slice(2), attrs[k]);
      else n.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { if (c) n.appendChild(c); });
    return n;
  }
  // Icons are inline SVG: an emoji or symbol glyph shows as a box where no font has it.
  var SVG_NS = 'http://www.w3.org/2000/svg';
  function icon(paths) {
    var svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('width', '24');
    svg.setAttribute('height', '24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('fill', 'none');
    svg.setAttribute('stroke', 'currentColor');
    svg.setAttribute('stroke-width', '2');
    svg.setAttribute('stroke-linecap', 'round');
    svg.setAttribute('stroke-linejoin', 'round');
    paths.forEach(function (d) {
      var p = document.createElementNS(SVG_NS, 'path');
      p.setAttribute('d', d);
      svg.appendChild(p);
    });
    return svg;
  }
  var CHAT_ICON = ['M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12z'];
  var CLOSE_ICON = ['M6 6l12 12', 'M18 6L6 18'];

  function pickLanguage(lang) {
    var l = lang && lang !== 'auto' ? lang : navigator.language || 'en';
    return /^ja/i.test(l) ? TEXT.ja : TEXT.en;
  }
  function safeColor(c, fallback) {
    return typeof c === 'string' && /^(#[0-9a-f]{3,8}|[a-z]+|rgba?\([\d\s.,%]+\))$/i.test(c.trim()) ? c.trim() : fallback;
  }

  function css(c) {
    var primary = safeColor(c.colors && c.colors.primary, '#4f46e5');
    var text = safeColor(c.colors && c.colors.text, '#ffffff');
    var bg = safeColor(c.colors && c.colors.background, '#ffffff');
    var side = c.position === 'left' ? 'left' : 'right';
    return [
      ':host{all:initial}',
      '.launcher{position:fixed;bottom:20px;' + side + ':20px;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;background:' + primary + ';color:' + text + ';display:flex;align-items:center;justify-content:center;box-shadow:0 4px 14px rgba(0,0,0,.25);z-index:2147483000}',
      '.panel{position:fixed;bottom:88px;' + side + ':20px;width:360px;max-width:calc(100vw - 40px);height:520px;max-height:calc(100vh - 120px);display:none;flex-direction:column;background:' + bg + ';color:#111827;border-radius:14px;box-shadow:0 10px 40px rgba(0,0,0,.25);overflow:hidden;font:14px/1.5 system-ui,-apple-system,"Hiragino Sans","Noto Sans JP",sans-serif;z-index:2147483000}',
      '.panel.open{display:flex}',
      '.head{background:' + primary + ';color:' + text + ';padding:12px 14px;display:flex;align-items:center;gap:8px}',
      '.head .title{font-weight:600;flex:1}.head .sub{font-size:12px;opacity:.85}',
      '.head button{background:transparent;border:0;color:inherit;cursor:pointer;display:flex;padding:2px}',
      '.head button svg{width:18px;height:18px}',
      '.log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px}',
      '.msg{max-width:85%;padding:8px 11px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word}',
      '.msg.user{align-self:flex-end;background:' + primary + ';color:' + text + '}',
      '.msg.assistant,.msg.operator{align-self:flex-start;background:#f3f4f6}',
      '.msg.operator .who{display:block;font-size:11px;color:#6b7280}',
      '.msg.notice{align-self:center;background:transparent;color:#b91c1c;font-size:12px}',
      '.chips{display:flex;flex-wrap:wrap;gap:6px;padding:0 12px 8px}',
      '.chips button{border:1px solid ' + primary + ';color:' + primary + ';background:#fff;border-radius:999px;padding:4px 10px;cursor:pointer;font:inherit;font-size:12px}',
      'form.send{display:flex;border-top:1px solid #e5e7eb}',
      'form.send textarea{flex:1;border:0;padding:10px;resize:none;font:inherit;height:44px;outline:none}',
      'form.send button{border:0;background:' + primary + ';color:' + text + ';padding:0 16px;cursor:pointer;font:inherit}',
      'form.lead{display:flex;flex-direction:column;gap:6px;padding:10px 12px;border-top:1px solid #e5e7eb;background:#fafafa}',
      'form.lead input{padding:6px 8px;border:1px solid #d1d5db;border-radius:6px;font:inherit}',
      'form.lead button{padding:6px;border:0;border-radius:6px;background:' + primary + ';color:' + text + ';cursor:pointer;font:inherit}',
      '.brand{text-align:center;font-size:11px;color:#9ca3af;padding:4px}',
    ].join('\n');
  }

  function addMessage(role, text) {
    var m = el('div', { class: 'msg ' + role, 'data-role': role });
    if (role === 'operator') m.appendChild(el('span', { class: 'who', text: t.operator }));
    m.appendChild(document.createTextNode(text));
    ui.log.appendChild(m);
    ui.log.scrollTop = ui.log.scrollHeight;
    return m;
  }

  function build() {
    var host = el('div', { id: 'agent-widget-' + publicId });
    var root = host.attachShadow ? host.attachShadow({ mode: 'open' }) : host;
    root.appendChild(el('style', { text: css(config) }));
    ui.host = host;
    ui.root = root;
    ui.launcher = el('button', { class: 'launcher', type: 'button', 'aria-label': t.open, title: t.open, onclick: toggle }, [icon(CHAT_ICON)]);
    ui.log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite' });
    ui.input = el('textarea', { placeholder: config.placeholder || t.placeholder, maxlength: String(MAX_CHARS), 'aria-label': t.placeholder });
    ui.input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        submit();
      }
    });
    var form = el('form', { class: 'send', onsubmit: function (e) { e.preventDefault(); submit(); } }, [ui.input, el('button', { type: 'submit', text: t.send })]);
    ui.chips = el('div', { class: 'chips' });
    (config.suggestions || []).forEach(function (s) {
      ui.chips.appendChild(el('button', { type: 'button', text: s, onclick: function () { send(s); } }));
    });
    var head = el('div', { class: 'head' }, [
      el('div', { class: 'title' }, [document.createTextNode(config.title || config.name), config.subtitle ? el('div', { class: 'sub', text: config.subtitle }) : null]),
      el('button', { class: 'close', type: 'button', 'aria-label': t.close, title: t.close, onclick: toggle }, [icon(CLOSE_ICON)]),
    ]);
    ui.panel = el('div', { class: 'panel', role: 'dialog', 'aria-label': config.title || config.name }, [head, ui.log, ui.chips, config.collect_leads ? leadForm() : null, form, config.show_branding ? el('div', { class: 'brand', text: t.powered }) : null]);
    root.appendChild(ui.launcher);
    root.appendChild(ui.panel);
    document.body.appendChild(host);
    var welcome = config.welcome_default ? t.welcome.replace('{name}', config.name) : config.welcome;
    if (welcome) addMessage('assistant', welcome);
  }

  function leadForm() {
    var fields = config.lead_fields && config.lead_fields.length ? config.lead_fields : ['name', 'email'];
    var inputs = {};
    var children = [el('div', { text: t.leadTitle })];
    fields.forEach(function (f) {
      inputs[f] = el('input', { name: f, type: f === 'email' ? 'email' : f === 'phone' ? 'tel' : 'text', placeholder: t[f] || f, 'aria-label': t[f] || f });
      children.push(inputs[f]);
    });
    var form = el('form', { class: 'lead' }, children.concat([el('button', { type: 'submit', text: t.leadSend })]));
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var body = {};
      for (var f in inputs) if (inputs[f].value.trim()) body[f] = inputs[f].value.trim();
      if (body.company) body.note = (t.company + ': ' + body.company), delete body.company;
      if (!body.email && !body.phone) return addMessage('notice', t.leadNeed);
      if (state.conversationId) body.conversationId = state.conversationId;
      request('POST', '/lead', body).then(function (r) {
        if (r.status === 200) {
          form.remove();
          addMessage('assistant', t.leadThanks);
        } else addMessage('notice', (r.data && r.data.error) || t.error);
      }, function () { addMessage('notice', t.error); });
    });
    return form;
  }

  function toggle() {
    var open = !ui.panel.classList.contains('open');
    ui.panel.classList.toggle('open', open);
    if (open) setTimeout(function () { ui.input.focus(); }, 0);
  }

  function submit() {
    var text = ui.input.value.trim();
    if (!text) return;
    send(text);
  }

  function send(text) {
    if (sending) return Promise.resolve(null);
    if (text.length > MAX_CHARS) {
      addMessage('notice', t.tooLong);
      return Promise.resolve(null);
    }
    sending = true;
    ui.input.value = '';
    ui.chips.textContent = '';
    addMessage('user', text);
    var pending = addMessage('assistant', t.typing);
    pending.setAttribute('data-pending', '1');
    var body = { message: text, visitorId: state.visitorId };
    if (state.conversationId) body.conversationId = state.conversationId;
    return request('POST', '/chat', body).then(function (r) {
      sending = false;
      pending.remove();
      if (r.status === 404 && state.conversationId) {
        // The conversation was deleted by the team: start a new one.
        state.conversationId = null;
        state.cursor = null;
        save();
        return send(text);
      }
      if (r.status === 429) return addMessage('notice', t.busy.replace('{s}', r.retryAfter || '60'));
      if (r.status === 402) return addMessage('notice', t.paused);
      if (r.status !== 200 || !r.data) return addMessage('notice', (r.data && r.data.error) || t.error);
      state.conversationId = r.data.conversationId;
      if (r.data.messageId) state.cursor = r.data.messageId;
      save();
      if (r.data.reply) addMessage('assistant', r.data.reply);
      if (r.data.handoff === 'requested' || r.data.handoff === 'operator') startPolling();
      return r.data;
    }, function () {
      sending = false;
      pending.remove();
      addMessage('notice', t.error);
    });
  }

  function poll() {
    if (!state.conversationId) return Promise.resolve();
    var q = '/poll?conversationId=' + encodeURIComponent(state.conversationId) + (state.cursor ? '&after=' + encodeURIComponent(state.cursor) : '');
    return request('GET', q).then(function (r) {
      if (r.status === 200 && r.data) {
        (r.data.messages || []).forEach(function (m) { addMessage('operator', m.text); });
        if (r.data.cursor) state.cursor = r.data.cursor;
        save();
        if (r.data.handoff === 'bot' || r.data.handoff === 'resolved') stopPolling();
      } else if (r.status === 404) stopPolling();
    }, function () { /* offline for a moment: the next poll catches up */ });
  }
  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(poll, pollMs);
  }
  function stopPolling() {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = null;
  }

  function start() {
    request('GET', '').then(function (r) {
      if (r.status !== 200 || !r.data) return;
      config = r.data;
      t = pickLanguage(config.language);
      build();
      window.AgentWidget = {
        open: function () { if (!ui.panel.classList.contains('open')) toggle(); },
        close: function () { if (ui.panel.classList.contains('open')) toggle(); },
        send: send,
        poll: poll,
        conversationId: function () { return state.conversationId; },
      };
      if (state.conversationId) startPolling();
      if (script.getAttribute('data-open') === '1') window.AgentWidget.open();
      else if (config.auto_open) setTimeout(window.AgentWidget.open, Math.max(0, Number(config.auto_open_delay) || 0));
    }, function () { /* the agent's server is unreachable: the page stays as it is */ });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
