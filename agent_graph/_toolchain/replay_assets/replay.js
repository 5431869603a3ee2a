/* agent-graph replay page: step through a Run's events. Reads #replay-data; writes text only (never HTML). */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var steps = D.steps, nodes = D.nodes, count = steps.length;
  // What steps share is stored once: routes, lists and shown values are referred to by index.
  steps.forEach(function (s) {
    if (typeof s.p === "number") s.p = D.routes[s.p];
    if (typeof s.al === "number") s.al = D.lists[s.al];
    if (typeof s.ar === "number") s.ar = D.lists[s.ar];
    if (typeof s.dg === "number") s.dg = D.lists[s.dg];
  });
  function shownValue(index) { return index < 0 ? null : D.values[index]; }

  /* Each step keeps only what differs from the one before (node letters "nd", unrecorded keys "xd"):
     the state of step k is rebuilt from the last kept whole state, one kept every D.keyframe steps. */
  var KEYFRAME = D.keyframe || 64, frames = [];
  function advance(state, s) {
    var nd = s.nd || [], xd = s.xd;
    for (var j = 0; j < nd.length; j += 3) {  // [first, count, letter]: a run of nodes given one letter
      for (var i = nd[j]; i < nd[j] + nd[j + 1]; i++) state.letters[i] = nd[j + 2];
    }
    if (xd) {
      xd[0].forEach(function (key) { state.unrecorded[key] = true; });
      xd[1].forEach(function (key) { delete state.unrecorded[key]; });
    }
  }
  function copy(state) {
    return { letters: state.letters.slice(), unrecorded: Object.assign(Object.create(null), state.unrecorded) };
  }
  (function keep() {
    var state = { letters: steps[0].ns.split(""), unrecorded: Object.create(null) };
    steps.forEach(function (s, k) {
      advance(state, s); // the first step has its letters whole ("ns"), and no "nd"
      if (k % KEYFRAME === 0) frames.push(copy(state));
    });
  })();
  var cachedAt = -1, cached = null;
  function stateAt(k) {
    if (k !== cachedAt) {
      var base = Math.floor(k / KEYFRAME), state = copy(frames[base]);
      for (var j = base * KEYFRAME + 1; j <= k; j++) advance(state, steps[j]);
      cachedAt = k;
      cached = state;
    }
    return cached;
  }
  function letterOf(i, k) { return stateAt(k).letters[i]; }
  function unrecordedAt(k) { return Object.keys(stateAt(k).unrecorded).sort(); }
  var LETTERS = { c: "completed", p: "partial", f: "failed", u: "unverified", s: "skipped",
    n: "pending", b: "blocked", w: "waiting-user", ".": "not-reached" };
  var SHOWN = { "offered": "offered now", "alternative": "also offered", "not-reached": "not reached" };
  var current = -1;

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  var slider = $("slider"), rowsBody = document.querySelector("#events tbody");
  var groups = nodes.map(function (_, i) { return document.getElementById("node-" + i); });

  // Outcome records per state key, in event order: [[step index, outcome, time], ...].
  var records = {};
  steps.forEach(function (s, k) {
    if (s.y === "node.outcome-recorded" && s.n) (records[s.n] = records[s.n] || []).push([k, s.o, s.t]);
  });
  function lastRecord(key, k) {
    var list = records[key] || [], found = null;
    for (var i = 0; i < list.length && list[i][0] <= k; i++) found = list[i];
    return found;
  }

  /* The status of node i at step k: the route offered first, then its settled outcome. */
  function statusOf(i, k) {
    var s = steps[k];
    if (s.p && s.p.i === i) return "offered";
    if (s.al && s.al.indexOf(i) >= 0) return "alternative";
    return LETTERS[letterOf(i, k)] || "not-reached";
  }
  window.replayStatus = function (sequence) {
    var k = sequence - 1, out = {};
    nodes.forEach(function (n, i) { out[n.id] = statusOf(i, k); });
    return out;
  };

  function summary() {
    var first = steps[0], last = steps[count - 1];
    $("summary").textContent = D.provider + " · Run " + D.run.id + " · " + D.run.graph + "#" + D.run.entry +
      " · " + count + " event" + (count === 1 ? "" : "s") + " · " + first.t + " to " + last.t;
  }

  /* The time column: the clock time when the whole Run is within one day, else the date too. */
  var oneDay = steps[0].t.slice(0, 10) === steps[count - 1].t.slice(0, 10);
  function shortTime(t) { return oneDay ? t.slice(11, 23) : t.slice(5, 10) + " " + t.slice(11, 19); }

  function buildRows() {
    var fragment = document.createDocumentFragment();
    steps.forEach(function (s, k) {
      var tr = el("tr");
      tr.id = "row-" + s.s;
      tr.tabIndex = -1;
      tr.setAttribute("aria-selected", "false");
      var gate = "";
      if (s.ni !== undefined && nodes[s.ni].kind === "gate" && s.o) gate = "decided " + s.o;
      if (s.cm) gate = gate ? gate + ": " + s.cm : s.cm;
      [s.s, shortTime(s.t), s.y.replace(/[.-]/g, "$&\u200b"), s.n || "", s.o || "", s.by || "", gate, s.st + (s.oc ? " (" + s.oc + ")" : "")]
        .forEach(function (value) { tr.appendChild(el("td", value)); });
      tr.cells[1].title = s.t;
      tr.addEventListener("click", function () { select(k, true); });
      fragment.appendChild(tr);
    });
    rowsBody.appendChild(fragment);
  }

  function dlRow(dl, term, value, cls) {
    if (value === undefined || value === null || value === "") return;
    dl.appendChild(el("dt", term));
    var dd = el("dd", null, cls);
    if (value instanceof Node) dd.appendChild(value); else dd.textContent = String(value);
    dl.appendChild(dd);
  }

  function showEvent(k) {
    var s = steps[k], dl = $("event-facts");
    $("event-heading").textContent = "Event " + s.s + " of " + count;
    clear(dl);
    dlRow(dl, "Time", s.t);
    dlRow(dl, "Type", s.y);
    dlRow(dl, "Node", s.n);
    dlRow(dl, "Outcome", s.o);
    dlRow(dl, "Recorded by", s.by);
    dlRow(dl, "Comment", s.cm);
    if (s.d && !s.cm) dlRow(dl, "Detail", s.d, "mono");
    var badge = el("span", s.st + (s.oc ? " (" + s.oc + ")" : ""), "badge " + s.st);
    badge.id = "status";
    dlRow(dl, "Status after", badge);
    dlRow(dl, "Revision", s.rv, "mono revision");

    var notice = $("notice");
    if (s.x) {
      var parts = [];
      if (s.x.af) parts.push("the Facts (the Run's start does not record them, and a later replacement may have removed some)");
      if (s.x.f) parts.push("the Facts " + unrecordedAt(k).join(", ") + " (their events name them without their values; the Run keeps only their latest value)");
      if (s.x.au) parts.push("the session authorities (granted before the first authorities event)");
      notice.textContent = "Not recorded at this event: " + parts.join("; ") +
        ". The status and node colours here use what the events do record.";
      notice.hidden = false;
    } else {
      notice.hidden = true;
      notice.textContent = "";
    }

    var route = $("route");
    clear(route);
    if (s.p) {
      var line = el("p");
      line.appendChild(el("strong", s.p.l || s.p.n));
      line.appendChild(document.createTextNode(" — node " + s.p.g + "/" + s.p.n + ", " + s.p.st + ", " + s.p.av));
      route.appendChild(line);
      route.appendChild(el("p", "Reason: " + s.p.r + (s.p.h ? " — " + s.p.h : "")));
      route.appendChild(el("p", "At revision " + s.rv, "mono revision small"));
      if (s.ar) {
        var more = s.ar.map(function (r) { return r[0] + " (" + r[1] + ", " + r[2] + ")"; }).join("; ");
        route.appendChild(el("p", "Also offered (" + s.an + "): " + more + (s.an > s.ar.length ? "; …" : ""), "small"));
      }
    } else {
      route.appendChild(el("p", "No route: the Run is " + s.st + (s.oc ? " (" + s.oc + ")" : "") + " at this event."));
    }
    (s.dg || []).forEach(function (text) { route.appendChild(el("p", text, "small muted")); });

    var body = document.querySelector("#changes tbody");
    clear(body);
    (s.ch || []).forEach(function (c) {
      var tr = el("tr");
      tr.appendChild(el("td", c[0]));
      tr.appendChild(el("td", c[0] === "authorities" ? "—" : c[1], "mono"));
      var facts = c[0] !== "outcomes";
      [[facts ? shownValue(c[2]) : c[2], c[4] & 1], [facts ? shownValue(c[3]) : c[3], c[4] & 2]].forEach(function (pair) {
        if (pair[1]) tr.appendChild(el("td", "not recorded", "value unrecorded"));
        else if (pair[0] === null) tr.appendChild(el("td", "(absent)", "value unrecorded"));
        else tr.appendChild(el("td", pair[0], "value"));
      });
      body.appendChild(tr);
    });
    if (!s.ch) {
      var none = el("tr"), cell = el("td", "Nothing in the Facts, Outcomes or authorities.", "muted");
      cell.colSpan = 4;
      none.appendChild(cell);
      body.appendChild(none);
    }
  }

  function showNodes(k) {
    var s = steps[k], body = document.querySelector("#statuses tbody");
    clear(body);
    nodes.forEach(function (n, i) {
      var status = statusOf(i, k), g = groups[i];
      if (g) {
        g.setAttribute("class", (g.getAttribute("class") || "").replace(/\s*(st-\S+|selected)/g, "") + " st-" + status +
          (s.ni === i ? " selected" : ""));
        g.setAttribute("aria-label", n.id + " (" + n.kind + "): " + (SHOWN[status] || status));
        g.setAttribute("data-status", status);
      }
      var tr = el("tr");
      tr.setAttribute("data-node", n.id);
      tr.appendChild(el("td", n.id, "mono"));
      var cell = el("td", SHOWN[status] || status);
      cell.className = "status";
      cell.setAttribute("data-status", status);
      tr.appendChild(cell);
      body.appendChild(tr);
    });
  }

  function select(k, focusRow) {
    k = Math.max(0, Math.min(count - 1, k));
    var previous = current;
    current = k;
    if (previous >= 0) {
      var old = $("row-" + steps[previous].s);
      old.setAttribute("aria-selected", "false");
      old.tabIndex = -1;
    }
    var row = $("row-" + steps[k].s);
    row.setAttribute("aria-selected", "true");
    row.tabIndex = 0;
    var wrap = $("events-wrap"), head = wrap.querySelector("thead").offsetHeight;
    if (row.offsetTop - head < wrap.scrollTop) wrap.scrollTop = row.offsetTop - head;
    else if (row.offsetTop + row.offsetHeight > wrap.scrollTop + wrap.clientHeight) {
      wrap.scrollTop = row.offsetTop + row.offsetHeight - wrap.clientHeight;
    }
    if (focusRow) row.focus({ preventScroll: true });
    slider.value = String(steps[k].s);
    slider.setAttribute("aria-valuetext", "Event " + steps[k].s + " of " + count + ": " + steps[k].y);
    $("position").textContent = "Event " + steps[k].s + " / " + count;
    showEvent(k);
    showNodes(k);
    if (cardFor !== null) showCard(cardFor);
    if (history.replaceState) history.replaceState(null, "", "#event-" + steps[k].s);
  }

  // ---------------------------------------------------------------- node cards

  var card = $("card"), cardFor = null;
  function why(i, k) {
    var n = nodes[i], s = steps[k], status = statusOf(i, k), out = [];
    var record = lastRecord(n.key, k);
    if (status === "offered") {
      out.push("Offered at this event (" + s.p.st + ", " + s.p.av + "): " + s.p.r + (s.p.h ? " — " + s.p.h : ""));
    } else if (status === "alternative") {
      out.push("Also offered at this event, after the primary route.");
    }
    var settled = LETTERS[letterOf(i, k)];
    if (settled && settled !== "not-reached") {
      out.push("Settled " + settled + " at this event.");
      if (settled === "completed" && n.satisfiedBy && (!record || record[1] !== "completed")) {
        out.push("Completed by its Facts: " + n.satisfiedBy.join("; ") + ".");
      }
      if (record && record[1] === "completed" && settled === "unverified") {
        out.push("Recorded completed, but the Facts that prove it are missing: " + (n.satisfiedBy || []).join("; ") + ".");
      }
    } else if (status === "not-reached") {
      out.push("Not reached at this event: no settled path leads here yet.");
      if (n.requiresFacts) out.push("Needs the Facts: " + n.requiresFacts.join("; ") + ".");
    }
    if (record) out.push("Last recorded: " + record[1] + " at event " + steps[record[0]].s + " (" + record[2] + ").");
    return out;
  }
  function showCard(i) {
    var n = nodes[i], g = groups[i];
    cardFor = i;
    clear(card);
    card.appendChild(el("h4", n.id + " · " + n.kind));
    if (n.description) card.appendChild(el("p", n.description));
    if (n.action) {
      var a = n.action;
      card.appendChild(el("p", "Action: " + a.id + (a.runner ? " (" + a.runner + ", " + a.effect + ")" : "") +
        (a.command ? " — " + a.command : a.handler ? " — handler " + a.handler : "")));
    }
    if (n.gate) {
      card.appendChild(el("p", "Gate: " + n.gate.prompt + (n.gate.authority ? " — authority " + n.gate.authority +
        (n.gate.delegatable ? " (delegatable)" : "") : "")));
    }
    if (n.calls) card.appendChild(el("p", "Calls " + n.calls));
    if (n.resources) {
      if (n.resources.required.length) card.appendChild(el("p", "Required: " + n.resources.required.join(", ")));
      if (n.resources.recommended.length) card.appendChild(el("p", "Recommended: " + n.resources.recommended.join(", ")));
    }
    if (n.satisfiedBy) card.appendChild(el("p", "Satisfied by: " + n.satisfiedBy.join("; ")));
    if (n.terminalOutcome) card.appendChild(el("p", "Ends the entry as " + n.terminalOutcome));
    var box = el("div", null, "why");
    box.appendChild(el("strong", "At event " + steps[current].s + ": " + (SHOWN[statusOf(i, current)] || statusOf(i, current))));
    why(i, current).forEach(function (line) { box.appendChild(el("p", line)); });
    card.appendChild(box);
    card.hidden = false;
    if (g) {
      var r = g.getBoundingClientRect();
      var left = window.scrollX + r.right + 10, top = window.scrollY + r.top;
      var width = card.offsetWidth || 380;
      if (left + width > window.scrollX + document.documentElement.clientWidth - 8) left = window.scrollX + r.left - width - 10;
      card.style.left = Math.max(window.scrollX + 8, left) + "px";
      card.style.top = top + "px";
      g.setAttribute("aria-describedby", "card");
    }
  }
  function hideCard() {
    if (cardFor !== null && groups[cardFor]) groups[cardFor].removeAttribute("aria-describedby");
    cardFor = null;
    card.hidden = true;
  }

  groups.forEach(function (g, i) {
    if (!g) return;
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.addEventListener("mouseenter", function () { showCard(i); });
    g.addEventListener("mouseleave", hideCard);
    g.addEventListener("focus", function () { showCard(i); });
    g.addEventListener("blur", hideCard);
    g.addEventListener("click", function () { g.focus(); showCard(i); });
  });

  // ---------------------------------------------------------------- controls and keys

  slider.min = "1";
  slider.max = String(count);
  slider.addEventListener("input", function () { select(Number(slider.value) - 1, false); });
  $("first").addEventListener("click", function () { select(0, false); });
  $("prev").addEventListener("click", function () { select(current - 1, false); });
  $("next").addEventListener("click", function () { select(current + 1, false); });
  $("last").addEventListener("click", function () { select(count - 1, false); });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape") { hideCard(); return; }
    if (e.target === slider) return; // the slider moves itself (arrows, Home/End, PageUp/PageDown)
    var inRows = rowsBody.contains(e.target);
    var moves = { ArrowLeft: -1, ArrowUp: -1, k: -1, ArrowRight: 1, ArrowDown: 1, j: 1, PageUp: -10, PageDown: 10 };
    var target = null;
    if (e.key in moves) target = current + moves[e.key];
    else if (e.key === "Home") target = 0;
    else if (e.key === "End") target = count - 1;
    else if ((e.key === "Enter" || e.key === " ") && inRows) target = Number(e.target.id.slice(4)) - 1;
    if (target === null) return;
    if ((e.key === "ArrowUp" || e.key === "ArrowDown") && !inRows && e.target !== document.body) {
      if (e.target.closest && e.target.closest("#graph")) { /* arrows on a node step events */ } else return;
    }
    e.preventDefault();
    select(target, inRows);
  });

  /* #event-N in the address selects event N (on load, and when the address changes). */
  function fromHash(fallback) {
    var hash = /^#event-(\d+)$/.exec(location.hash);
    return hash && Number(hash[1]) >= 1 && Number(hash[1]) <= count ? Number(hash[1]) - 1 : fallback;
  }
  window.addEventListener("hashchange", function () { select(fromHash(current), false); });

  summary();
  buildRows();
  select(fromHash(count - 1), false);
})();
