#!/bin/sh
# Turns the pages swift-argument-parser's generate-manual writes into proper
# mdoc, in place:   scripts/man-polish.sh PAGE.1...
#
# generate-manual copies a command's `discussion` into DESCRIPTION as plain
# lines. tick's discussions follow one convention (Sources/tick/Commands):
# a line in capitals is a heading ("EXAMPLES", "LITERAL TITLES"), lines
# indented by two spaces are literal (commands, tables), a blank line ends a
# paragraph. Here that becomes .Ss headings, .Bd -literal blocks and .Pp, with
# no empty input lines (groff -ww warns on them). EXAMPLES, ENVIRONMENT,
# FILES and EXIT STATUS headings become sections of their own, after the
# options, in the usual order; a page without an EXIT STATUS text gets tick's
# exit codes instead of mdoc's generic "exits 0 on success". Every page gets a
# SEE ALSO; tick(1) also points to the hand-written pages. Non-ASCII
# characters, passed through generate-manual as TICKU<hex>U by
# scripts/dump-help-ascii.sh, become \[u<hex>].
set -eu
for page in "$@"; do
    awk '
    function emit(s) { buf[cur] = buf[cur] s "\n" }
    function close_literal() { if (lit) { emit(".Ed"); lit = 0 } }
    function text(s) { if (s ~ /^[.\047]/) s = "\\&" s; return s }
    # With subsections in the text, the options that follow get one too.
    function flush_description() {
        close_literal(); printf "%s", buf["desc"]; done_disc = 1
        if (buf["desc"] ~ /(^|\n)\.Ss /) print ".Ss OPTIONS"
    }
    function section(name) { if (buf[name] != "") printf ".Sh \"%s\"\n%s", name, buf[name] }
    BEGIN { cur = "desc"; para = 0; lit = 0; indisc = 0; done_disc = 0; seealso = 0 }
    /^\.Dt TICK 1$/ { root = 1 }
    indisc && /^\./ { indisc = 0; flush_description() }
    indisc {
        if ($0 ~ /^[ \t]*$/) { close_literal(); para = 1; next }
        if ($0 ~ /^  /) {
            if (!lit) { if (para && buf[cur] != "") emit(".Pp"); emit(".Bd -literal -offset indent"); lit = 1 }
            para = 0
            emit(text(substr($0, 3)))
            next
        }
        close_literal()
        if ($0 ~ /^[A-Z][A-Z0-9 &\/,-]*[A-Z0-9]( \(.*\))?$/ && (para || buf[cur] == "")) {
            if ($0 ~ /^EXAMPLES?$/) cur = "EXAMPLES"
            else if ($0 ~ /^ENVIRONMENT$/) cur = "ENVIRONMENT"
            else if ($0 ~ /^FILES$/) cur = "FILES"
            else if ($0 ~ /^EXIT STATUS$/) cur = "EXIT STATUS"
            else { cur = "desc"; h = $0; gsub(/"/, "\\(dq", h); emit(".Ss \"" h "\"") }
            para = 0
            next
        }
        if (para && buf[cur] != "" && buf[cur] !~ /\.Ss [^\n]*\n$/) emit(".Pp")
        para = 0
        emit(text($0))
        next
    }
    /^\.Sh DESCRIPTION$/ { print; indisc = 1; next }
    /^\.Sh "EXIT STATUS"$/ {
        if (indisc) { indisc = 0 }
        if (!done_disc) flush_description()
        section("ENVIRONMENT"); section("FILES")
        print
        if (buf["EXIT STATUS"] != "") printf "%s", buf["EXIT STATUS"]
        else {
            print ".Bl -tag -width Ds -compact"
            print ".It 0"; print "success"
            print ".It 1"; print "failure: I/O, permissions, lock timeout, refused without confirmation"
            print ".It 2"; print "usage error: a bad option, date or token"
            print ".It 3"; print "a task or list not found, or an ambiguous id or list name"
            print ".It 4"; print "a store file cannot be parsed or breaks the schema"
            print ".El"
        }
        section("EXAMPLES")
        skip_ex = 1
        next
    }
    skip_ex && /^\.Ex -std$/ { skip_ex = 0; next }
    /^\.Sh "SEE ALSO"$/ { seealso = 1; print; next }
    # tick(1): hold the last .Xr back to add a comma and the hand-written pages.
    seealso && root { if (held != "") print held; held = $0; next }
    { print }
    END {
        if (indisc) flush_description()
        if (!seealso) { print ".Sh \"SEE ALSO\""; print ".Xr tick 1" }
        if (root) {
            if (held != "") print held " ,"
            print ".Xr tick-config 5 ,"; print ".Xr tick-format 5 ,"; print ".Xr tick-sync 7"
        }
    }
    ' "$page" | sed -E 's/TICKU([0-9A-F]{4,6})U/\\[u\1]/g' > "$page.tmp"
    mv "$page.tmp" "$page"
done
