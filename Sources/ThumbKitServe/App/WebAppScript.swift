// SPDX-License-Identifier: Apache-2.0
/// The web app's own script (`/assets/app.js`), loaded by every page of a reader who is logged
/// in: the rating stars of a bug's page rate without a reload. A click on a star sends the
/// star form's fields (`csrf` and `rating`) with `fetch`, same-origin, asking for JSON
/// (`Accept: application/json`: `BugForms` answers `{"rating":4,"text":"4 out of 5"}`), then
/// sets the `data-rating` element and the stars from the answer. On any failure (an old
/// browser, a network error, any answer but 200 with that JSON) it submits the form as usual,
/// so the page behaves as it does without JavaScript. The rating strip is an output the build
/// lanes remake after the answer, so the script then fetches the page again (once a second, at
/// most 60 times) until it no longer says the bug is being rebuilt, and puts that page's strip
/// in place of the old one; a later rating stops an earlier wait. It is a file of its own, never inline, so
/// the pages' `Content-Security-Policy` can say `script-src 'self'`.
enum WebAppScript {
    /// Its name under `/assets/`.
    static let path = "app.js"

    static let source = """
        // Written by thumbkit: rates a bug without reloading its page. Without this script, or when
        // anything here fails, the star buttons submit their form as usual.
        (function () {
          "use strict";
          var form = document.querySelector("form.stars");
          if (!form || !window.fetch || !window.URLSearchParams) { return; }
          var sending = false;

          // The form as the browser would have sent it, with `button` as the clicked star.
          function fields(button) {
            var body = new URLSearchParams();
            var hidden = form.querySelectorAll("input[type=hidden]");
            for (var i = 0; i < hidden.length; i++) { body.append(hidden[i].name, hidden[i].value); }
            body.append(button.name, button.value);
            return body;
          }

          // Submits the form without this script: a hidden field carries the clicked star.
          function submitPlainly(button) {
            var input = document.createElement("input");
            input.type = "hidden";
            input.name = button.name;
            input.value = button.value;
            form.appendChild(input);
            HTMLFormElement.prototype.submit.call(form);
          }

          function show(answer) {
            var label = document.querySelector("[data-rating]");
            if (label) {
              label.setAttribute("data-rating", String(answer.rating));
              if (typeof answer.text === "string") { label.textContent = answer.text; }
            }
            var strip = document.querySelector("img.stars");
            if (strip && typeof answer.text === "string") { strip.setAttribute("alt", answer.text); }
            var stars = form.querySelectorAll("button[name=rating]");
            for (var i = 0; i < stars.length; i++) {
              stars[i].classList.toggle("on", Number(stars[i].value) <= answer.rating);
            }
          }

          // The strip: its <picture> when it has one, else the <img> (or the placeholder).
          function stripOf(root) {
            var strip = root.querySelector("img.stars, span.stars");
            if (!strip) { return null; }
            return strip.parentElement && strip.parentElement.tagName === "PICTURE" ? strip.parentElement : strip;
          }

          // Fetches this page until it is rebuilt, then shows its strip. `round` tells a newer
          // rating's wait from an older one's.
          var round = 0;
          function refreshStrip(mine, tries) {
            if (mine !== round || tries <= 0 || !window.DOMParser) { return; }
            window.setTimeout(function () {
              if (mine !== round) { return; }
              fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
                .then(function (response) {
                  if (response.status !== 200) { throw new Error("answered " + response.status); }
                  return response.text();
                }).then(function (text) {
                  if (mine !== round) { return; }
                  var page = new DOMParser().parseFromString(text, "text/html");
                  if (page.querySelector(".rebuilding")) { refreshStrip(mine, tries - 1); return; }
                  var fresh = stripOf(page);
                  var old = stripOf(document);
                  if (fresh && old) { old.replaceWith(document.importNode(fresh, true)); }
                }).catch(function () { refreshStrip(mine, tries - 1); });
            }, 1000);
          }

          form.addEventListener("click", function (event) {
            var button = event.target && event.target.closest ? event.target.closest("button[name=rating]") : null;
            if (!button || !form.contains(button)) { return; }
            event.preventDefault();
            if (sending) { return; }
            sending = true;
            form.setAttribute("aria-busy", "true");
            fetch(form.action, {
              method: "POST", credentials: "same-origin", body: fields(button),
              headers: { "Accept": "application/json" }
            }).then(function (response) {
              if (response.status !== 200) { throw new Error("answered " + response.status); }
              return response.json();
            }).then(function (answer) {
              if (!answer || typeof answer.rating !== "number") { throw new Error("no rating in the answer"); }
              show(answer);
              round += 1;
              refreshStrip(round, 60);
              sending = false;
              form.removeAttribute("aria-busy");
            }).catch(function () {
              submitPlainly(button);
            });
          });
        })();

        """
}
