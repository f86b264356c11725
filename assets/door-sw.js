// The door screen's offline shell (docs/decisions/28-a-persons-day.md): a service worker at /door/sw.js keeps the
// door page, its script, style and QR decoder, and the last whole roster, so a reload with
// no network still opens the screen (whose own queue and roster live in IndexedDB).
// Pages are asked for from the network first and kept; a refused pass (401, 403, 404) is
// forgotten at once. The roster is kept under a key made from a hash of the pass, never the
// pass itself.
'use strict';
var CACHE = 'door-shell-v1';

self.addEventListener('install', function () {
  self.skipWaiting();
});
self.addEventListener('activate', function (e) {
  e.waitUntil(
    caches
      .keys()
      .then(function (keys) {
        return Promise.all(
          keys
            .filter(function (k) {
              return k.indexOf('door-shell-') === 0 && k !== CACHE;
            })
            .map(function (k) {
              return caches.delete(k);
            }),
        );
      })
      .then(function () {
        return self.clients.claim();
      }),
  );
});

function hex(buf) {
  return Array.prototype.map
    .call(new Uint8Array(buf), function (b) {
      return ('0' + b.toString(16)).slice(-2);
    })
    .join('');
}
// The cache key of a pass's roster: the roster's path and a hash of the pass.
function rosterKey(path, authorization) {
  return crypto.subtle.digest('SHA-256', new TextEncoder().encode(authorization || '')).then(function (d) {
    return new Request(self.location.origin + path + '?pass=' + hex(d).slice(0, 32));
  });
}
function refused(status) {
  return status === 401 || status === 403 || status === 404;
}

// Network first; the copy kept answers when the network does not.
function networkFirst(request, key) {
  return caches.open(CACHE).then(function (cache) {
    return fetch(request).then(
      function (res) {
        if (res.ok) cache.put(key, res.clone());
        else if (refused(res.status)) cache.delete(key);
        return res;
      },
      function (err) {
        return cache.match(key).then(function (kept) {
          if (kept) return kept;
          throw err;
        });
      },
    );
  });
}

self.addEventListener('fetch', function (e) {
  var req = e.request;
  if (req.method !== 'GET') return;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf('/door/assets/') === 0) {
    // Versioned names: a kept copy is always right.
    e.respondWith(
      caches.open(CACHE).then(function (cache) {
        return cache.match(req).then(function (kept) {
          return (
            kept ||
            fetch(req).then(function (res) {
              if (res.ok) cache.put(req, res.clone());
              return res;
            })
          );
        });
      }),
    );
  } else if (req.mode === 'navigate' && /^\/door\/[A-Za-z0-9_-]+$/.test(url.pathname)) {
    e.respondWith(networkFirst(req, new Request(url.origin + url.pathname)));
  } else if (/^\/api\/v1\/events\/[^/]+\/door\/roster$/.test(url.pathname) && url.search === '') {
    e.respondWith(
      rosterKey(url.pathname, req.headers.get('authorization')).then(function (key) {
        return networkFirst(req, key);
      }),
    );
  }
});

// The page, on its first visit (before this worker controlled it), names what to keep.
self.addEventListener('message', function (e) {
  var d = e.data || {};
  if (d.type !== 'keep' || !Array.isArray(d.urls)) return;
  var same = d.urls.filter(function (u) {
    return typeof u === 'string' && u.charAt(0) === '/' && u.indexOf('/door/') === 0;
  });
  e.waitUntil(
    caches.open(CACHE).then(function (cache) {
      var keep = [cache.addAll(same)];
      if (
        d.roster &&
        typeof d.roster.path === 'string' &&
        /^\/api\/v1\/events\/[^/]+\/door\/roster$/.test(d.roster.path)
      ) {
        keep.push(
          rosterKey(d.roster.path, d.roster.authorization).then(function (key) {
            return fetch(d.roster.path, {
              headers: { authorization: d.roster.authorization, accept: 'application/json' },
              credentials: 'omit',
              cache: 'no-store',
            }).then(function (res) {
              if (res.ok) return cache.put(key, res);
            });
          }),
        );
      }
      return Promise.all(keep).catch(function () {
        /* kept on the next visit */
      });
    }),
  );
});
