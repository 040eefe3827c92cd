// Live regions: an element with data-live="<url>" fetches that URL every few seconds and swaps its
// content in place when it changed. Open <details> stay open, changed fleet rows flash. The pages work
// without this script: it only saves the reload.
(function () {
  'use strict';
  var interval = Number(document.body.getAttribute('data-refresh-millis')) || 5000;
  var status = document.getElementById('live-status');

  function say(text, offline) {
    if (!status) { return; }
    status.textContent = text;
    status.classList.toggle('offline', !!offline);
  }

  function openDetails(element) {
    var open = [];
    element.querySelectorAll('details[open]').forEach(function (details, index) {
      open.push(details.id || details.querySelector('summary') && details.querySelector('summary').textContent || String(index));
    });
    return open;
  }

  function reopen(element, open) {
    element.querySelectorAll('details').forEach(function (details, index) {
      var key = details.id || details.querySelector('summary') && details.querySelector('summary').textContent || String(index);
      if (open.indexOf(key) >= 0) { details.open = true; }
    });
  }

  function versions(element) {
    var seen = {};
    element.querySelectorAll('[data-table][data-version]').forEach(function (row) {
      seen[row.getAttribute('data-table')] = row.getAttribute('data-version');
    });
    return seen;
  }

  function refresh(element) {
    if (document.hidden) { return; }
    var url = element.getAttribute('data-live');
    fetch(url, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
      .then(function (response) {
        if (!response.ok) { throw new Error('the console answered ' + response.status); }
        return response.text();
      })
      .then(function (html) {
        if (html !== element.getAttribute('data-last')) {
          var open = openDetails(element);
          var before = versions(element);
          element.innerHTML = html;
          element.setAttribute('data-last', html);
          reopen(element, open);
          element.querySelectorAll('[data-table][data-version]').forEach(function (row) {
            var table = row.getAttribute('data-table');
            if (before[table] !== undefined && before[table] !== row.getAttribute('data-version')) {
              row.classList.add('changed');
            }
          });
        }
        say('live · ' + new Date().toLocaleTimeString(), false);
      })
      .catch(function (error) { say('offline: ' + error.message, true); });
  }

  document.querySelectorAll('[data-live]').forEach(function (element) {
    window.setInterval(function () { refresh(element); }, interval);
  });
  if (document.querySelector('[data-live]')) { say('live', false); }
})();
