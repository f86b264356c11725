/*
 * The waiting room's proof of work, solved off the page's thread (docs/decisions/
 * 26-a-fair-waiting-room.md). Above this file, assets.ts puts altcha-lib's own browser solver
 * (pow.js, helpers.js, types.js and algorithms/web/sha.js: SHA-256 through crypto.subtle) with
 * their import and export words taken off, so the worker is one classic script the page's CSP
 * admits ('self'). The page posts the challenge; the worker answers { solution } or { error }.
 */
self.onmessage = function (message) {
  solveChallenge({ challenge: message.data, deriveKey: deriveKey }).then(
    function (solution) {
      self.postMessage(solution ? { solution: solution } : { error: 'not solved' });
    },
    function (err) {
      self.postMessage({ error: String(err) });
    },
  );
};
