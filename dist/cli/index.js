import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 298:
/***/ ((module) => {

// A simple implementation of make-array
function makeArray (subject) {
  return Array.isArray(subject)
    ? subject
    : [subject]
}

const UNDEFINED = undefined
const EMPTY = ''
const SPACE = ' '
const ESCAPE = '\\'

// The characters that carry a meaning of their own inside a regular
//   expression, so a literal one has to be escaped before it is emitted.
const REGEX_LITERAL_SPECIAL = /[.*+?()[\]{}^$|\\/]/
const BOM = '\uFEFF'
// A run of two or more asterisks is a globstar (#175)
const REGEX_ANCHORED_GLOBSTAR = /^\/\*{2,}$/
const REGEX_REPLACE_LEADING_EXCAPED_EXCLAMATION = /^\\!/
const REGEX_REPLACE_LEADING_EXCAPED_HASH = /^\\#/
const REGEX_SPLITALL_CRLF = /\r?\n/g

// Invalid:
// - /foo,
// - ./foo,
// - ../foo,
// - .
// - ..
// Valid:
// - .foo
const DOUBLE_SLASH = '//'
const SLASH_CODE = 47
const DOT_CODE = 46


const SLASH = '/'

// Do not use ternary expression here, since "istanbul ignore next" is buggy
let TMP_KEY_IGNORE = 'node-ignore'
/* istanbul ignore else */
if (typeof Symbol !== 'undefined') {
  TMP_KEY_IGNORE = Symbol.for('node-ignore')
}
const KEY_IGNORE = TMP_KEY_IGNORE

const define = (object, key, value) => {
  Object.defineProperty(object, key, {value})
  return value
}

const RETURN_FALSE = () => false

// > The range notation, e.g. [a-zA-Z],
// > can be used to match one of the characters in a range.
//
// gitignore(5) defers to fnmatch(3) for this, and git implements it in
//   `wildmatch.c`.  A bracket expression has a sub-grammar of its own, which
//   is neither the surrounding pattern grammar nor the JavaScript one:
//
//   - a `]` right after `[` or `[!` is a literal member, not the terminator
//   - `[:alpha:]` names one of twelve POSIX classes
//   - `\` escapes the next member, `]` included
//   - `*`, `?` and `.` are plain literal members
//   - an unterminated expression makes the whole pattern match nothing
//
// which means the expression can not be located -- let alone translated -- by
//   a regular expression.  It is scanned out of the pattern before the
//   replacers below run, and put back once they are done, so that neither the
//   metacharacter escaper nor the `?` / `*` replacers ever see its body.

// git classifies with its own ASCII-only ctype macros (`wildmatch.c`), never
//   with the C library ones, so these must not be mapped onto `\d` / `\w` /
//   `\s`, which are wider.  `/` is left out of every expansion, because a
//   bracket expression never matches a path separator.
const POSIX_CLASSES = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-.0-~',
  lower: 'a-z',
  print: ' -.0-~',
  punct: '!-.:-@\\[-`{-~',
  // git's `sane-ctype.h` classifies \v and \f as control, not space,
  //   unlike C's `isspace`
  space: ' \\t\\n\\r',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f'
}

const CLASS_MEMBERS_TO_ESCAPE = '\\]^-['

const escapeMember = char => CLASS_MEMBERS_TO_ESCAPE.indexOf(char) < 0
  ? char
  : ESCAPE + char

// > if (matched == negated || ((flags & WM_PATHNAME) && text_ch == '/'))
// >   return WM_ABORT_TO_STARSTAR;                     (git, `wildmatch.c`)
// A bracket expression never matches a path separator, whatever its members
//   say, so a negated class gets `/` as one more excluded character, while a
//   plain one -- where a literal member or a range could still let `/` in --
//   is guarded with a lookahead, `/` being impossible to subtract from a
//   JavaScript character class.
const NON_SLASH = '(?!\\/)'

const classSource = (negated, body) => {
  if (negated) {
    return `[^\\/${body}]`
  }

  const source = `[${body}]`

  return new RegExp(source).test('/')
    ? NON_SLASH + source
    : source
}

// Scan the bracket expression that starts at `pattern[start] === '['`,
//   mirroring the member loop of git's `wildmatch.c`.
// @returns {{end: number, source: string} | null} `null` if the expression is
//   never terminated, which makes the whole pattern match nothing.
const scanBracket = (pattern, start) => {
  const {length} = pattern
  let index = start + 1
  let negated = EMPTY

  const lead = pattern[index]
  if (lead === '!' || lead === '^') {
    negated = '^'
    index ++
  }

  let body = EMPTY

  // The member a `-` could start a range from, or EMPTY when the previous
  //   member can not open one (start of the body, or a range / POSIX class
  //   that has just closed)
  let prev = EMPTY

  // git scans the members with a do-while, so the first one is consumed
  //   unconditionally.  That is the whole reason a leading `]` is a member
  //   and not the terminator.
  for (;;) {
    const char = pattern[index]

    if (char === UNDEFINED) {
      return null
    }

    if (char === ESCAPE) {
      // A pattern can not end on a lone backslash -- `createRule` has
      //   already thrown it away -- so there is a character to read.
      const escaped = pattern[++ index]
      body += escapeMember(escaped)
      prev = escaped
    } else if (
      char === '-'
      && prev
      && index + 1 < length
      && pattern[index + 1] !== ']'
    ) {
      index ++
      let to = pattern[index]
      if (to === ESCAPE) {
        to = pattern[index += 1]
      }
      // An out-of-order range matches nothing in git but is a syntax error in
      //   JavaScript, so it is dropped.  Its lower bound stays: git tests it
      //   as a plain member before it ever looks at the `-`, so `[c-a]` does
      //   match `c`.
      if (prev <= to) {
        body += `-${escapeMember(to)}`
      }
      prev = EMPTY
    } else if (char === '[' && pattern[index + 1] === ':') {
      const nameStart = index + 2
      let end = nameStart
      while (end < length && pattern[end] !== ']') {
        end ++
      }

      if (end === length) {
        return null
      }

      if (end > nameStart && pattern[end - 1] === ':') {
        const name = pattern.slice(nameStart, end - 1)

        // An unknown class name makes the whole pattern match nothing
        if (!Object.prototype.hasOwnProperty.call(POSIX_CLASSES, name)) {
          return null
        }

        body += POSIX_CLASSES[name]
        prev = EMPTY
        index = end
      } else {
        // No `:]` to close it, so the `[` is a plain member and scanning
        //   resumes right after it.
        body += escapeMember('[')
        prev = '['
        index = nameStart - 2
      }
    } else {
      body += escapeMember(char)
      prev = char
    }

    index ++

    if (pattern[index] === ']') {
      return {
        end: index,
        source: classSource(negated, body)
      }
    }
  }
}

// An empty JavaScript class can never match, which is how a pattern that git
//   gives up on (`WM_ABORT_ALL`) is expressed here.
const NEVER_MATCH = '[]'

// A NUL can appear in neither a `.gitignore` line nor a path, which makes it
//   the one safe placeholder character.  A literal one in the pattern is
//   held aside all the same, so a collision is impossible by construction.
const PLACEHOLDER = '\u0000'
const REGEX_RESTORE_PLACEHOLDER = new RegExp(
  `${PLACEHOLDER}(\\d+)${PLACEHOLDER}`, 'g'
)

// The one wildcard the chain does not expand for itself is a trailing `*`. How
//   it expands depends on the mode (`regex` vs `checkRegex`), so `_make` is
//   left to do it, and until then the pending wildcard travels as this marker.
//   That is what keeps it apart from a user-escaped literal `\*`: the unescape
//   steps collapse the escaped one to the exact `\*` a wildcard would leave
//   behind, so by the time `_make` runs the two are otherwise the same string
//   and a literal star gets wrongly rewritten into a wildcard. The marker is a
//   private-use character, and `extractBrackets` keeps one that came out of the
//   pattern apart from it, so the only marker `_make` ever turns back into a
//   real wildcard is the one this chain put there itself.
const TRAILING_WILDCARD = '\uE000'

// A trailing "/**" is deferred the same way, because `checkRegex` has to tell
//   it apart from a trailing "/*" (see `checkSourceOf`). For `.ignores()` it
//   still never matches the folder itself (#21).
const TRAILING_DOUBLESTAR = '\uE001'

// The three characters above mean something to the chain that builds the
//   source rather than to the path, so one that came out of the pattern is
//   held aside like a bracket expression instead of going straight out. Being
//   held is what makes it safe: the restore runs after the step that anchors
//   the source, so the character comes back in the middle of the source and
//   not at its end, which is the one place `_make` and `checkSourceOf` look
//   for a marker. Without it a pattern's own character lands where a pending
//   marker sits, and `_make` turns it into a real trailing wildcard.
//
// It is held as a one-member class rather than bare, in both of the branches
//   a reserved character can reach, so that the property can be
//   read off this function alone -- a reserved character never goes out on
//   its own -- rather than depending on where in the chain the restore
//   happens to run. In the expression built here `[x]` matches exactly what
//   `x` matches, none of the three being special to a regular expression or
//   inside a class, so no test can tell the two apart: the class is insurance,
//   and the paragraph above is the reason it is not needed.
const isReserved = char =>
  char === PLACEHOLDER
  || char === TRAILING_WILDCARD
  || char === TRAILING_DOUBLESTAR

// Replace every bracket expression with a placeholder the replacers below
//   leave alone, and translate it separately.
const extractBrackets = pattern => {
  const sources = []
  const hold = source =>
    `${PLACEHOLDER}${sources.push(source) - 1}${PLACEHOLDER}`

  const {length} = pattern
  let out = EMPTY
  let index = 0

  while (index < length) {
    const char = pattern[index]

    if (char === ESCAPE) {
      // > Put a backslash ("\") in front of ... a character to make it literal.
      //                                            (gitignore(5) -> fnmatch(3))
      // A backslash quotes the next character, whatever it is, so `\d` is a
      //   literal `d`, not the regex digit class, and `\?` is a literal `?`,
      //   not a wildcard. Held aside as its literal here, the escape never
      //   reaches the replacers below, which would otherwise let `\d`, `\b`,
      //   `\1`, `\/` keep their regular-expression meaning, and would turn a
      //   `\?` into `[^\/]`.
      //
      // Three escapes are still left for the chain: `\*` (a literal star,
      //   told apart from a wildcard by `TRAILING_WILDCARD` and the wildcard
      //   replacers), `\[` (a literal bracket, the one `[` the bracket
      //   replacer still expects), and `\ ` (a quoted space, which one pass
      //   below rewrites in bulk -- holding each one aside instead costs more
      //   on a pattern built out of them).
      //
      // A quoted backslash is not among them. The chain doubles every
      //   backslash, then takes the doubling back out again, and a quoted one
      //   standing next to a character the chain also escapes left the two
      //   counts sharing a run, so one of the escapes was lost. Held here as
      //   the literal it means, it never joins that run.
      const escaped = pattern[index + 1]

      if (escaped === SLASH && index + 2 === length) {
        // Git removes a final directory slash before matching. An escape
        //   without a character after that removal makes the pattern invalid.
        out += hold(NEVER_MATCH)
      } else if (
        escaped === '*'
        || escaped === '['
        || escaped === SPACE
      ) {
        out += pattern.slice(index, index + 2)
      } else {
        out += hold(
          REGEX_LITERAL_SPECIAL.test(escaped)
            ? ESCAPE + escaped
            : isReserved(escaped)
              ? `[${escaped}]`
              : escaped
        )
      }

      index += 2
    } else if (isReserved(char)) {
      out += hold(`[${char}]`)
      index ++
    } else if (char === '[') {
      const scanned = scanBracket(pattern, index)

      if (scanned === null) {
        // git gives up on the whole pattern (`WM_ABORT_ALL`), so whatever
        //   follows can not make it match either.
        out += hold(NEVER_MATCH)
        index = length
      } else {
        out += hold(scanned.source)
        index = scanned.end + 1
      }
    } else {
      out += char
      index ++
    }
  }

  return {
    source: out,
    sources
  }
}

// A step of the chain below is normally a `[matcher, replacer]` pair handed
//   to `String.replace`. `DIRECT` marks the ones that are plain string work
//   instead, and take `(source, pattern)`.
//
// Anchoring the two ends is exactly that -- a test of one character and a
//   concatenation -- and putting it through the regular expression engine
//   cost a third of this chain for nothing: 167ns where 10ns does the same
//   job. The two are still steps in the same list, in the same places,
//   because their position in the order is part of what they mean.
const DIRECT = null

// A separator at the beginning or in the middle of a pattern, as opposed to
//   one at the very end.
const REGEX_INNER_SLASH = /\/(?!$)/
const WILDCARD = '[^\\/]*'

// > If the pattern ends with a slash,
// > it is removed for the purpose of the following description,
// > but it would only find a match with a directory.
// > In other words, foo/ will match a directory foo and paths underneath it,
// > but will not match a regular file or a symbolic link foo
// >  (this is consistent with the way how pathspec works in general in Git).
// '`foo/`' will not match regular file '`foo`' or symbolic link '`foo`'
// -> ignore-rules will not deal with it, because it costs extra `fs.stat` call
//      you could use option `mark: true` with `glob`

// '`foo/`' should not continue with the '`..`'
// The chain that turns one gitignore pattern into a regular expression
//   source, in order. A step is either
//
//   [matcher, replacer]            handed to `String.replace`
//   [matcher, replacer, required]  the same, but skipped outright unless
//                                    `required` appears in the string, which
//                                    the matcher cannot match without
//   [DIRECT, transform]            plain string work, taking (source, pattern)
//
// The `required` character is only ever a shortcut: finding it does not mean
//   the matcher will match, and not finding it means it cannot. It is there
//   because scanning for one character costs a fraction of running a matcher
//   that then finds nothing -- for the wildcard step, whose `[^\\]+`
//   backtracks its way through the whole string before giving up, 11ns
//   against 400ns.
const REPLACERS = [

  // Replace (\ ) with ' '
  // Only a space: an escaped tab or other whitespace is already a literal by
  //   the time it reaches here, and a bare tab must be left as one, not turned
  //   into a space.
  // (\ ) -> ' '
  // (\\ ) -> '\\ '
  // (\\\ ) -> '\\ '
  [
    // A run of backslashes is taken whole, from its first one, so no match
    //   ever starts again inside it -- `(\\+?) ` did, which made a long run
    //   quadratic.
    /(\\+)( ?)/g,
    (_, run, space) => space
      ? run.slice(0, run.length - run.length % 2) + SPACE
      : run,
    ESCAPE + SPACE
  ],

  // git's wildmatch() reads a run of two or more asterisks as one globstar
  //   whenever the run fills a path segment: it starts the pattern or follows
  //   a `/`, and it ends the pattern or comes before a `/`. A run of two is
  //   already `**`; a longer one is folded into `**` here, so the steps
  //   below only ever have to know `**`.
  // `***/foo` -> `**/foo`, `a/***/b` -> `a/**/b`, `a/***` -> `a/**`
  // git also takes a run beside a literal prefix (`a***/b`) or beside an
  //   escaped slash (`***\/b`) as a globstar, and this does not; the README
  //   lists both, under "A run of asterisks".
  [
    /(^|\/)\*{3,}(?=\/|$)/g,
    (_, start) => `${start}**`,
    '*'
  ],

  // Escape metacharacters
  // which is written down by users but means special for regular expressions.

  // > There are 12 characters with special meanings:
  // > - the backslash \,
  // > - the caret ^,
  // > - the dollar sign $,
  // > - the period or dot .,
  // > - the vertical bar or pipe symbol |,
  // > - the question mark ?,
  // > - the asterisk or star *,
  // > - the plus sign +,
  // > - the opening parenthesis (,
  // > - the closing parenthesis ),
  // > - and the opening square bracket [,
  // > - the opening curly brace {,
  // > These special characters are often called "metacharacters".
  [
    /[\\$.|*+(){^]/g,
    match => `\\${match}`
  ],

  [
    // > a question mark (?) matches a single character
    /(?!\\)\?/g,
    () => '[^/]',
    '?'
  ],

  // leading slash
  [

    // > A leading slash matches the beginning of the pathname.
    // > For example, "/*.c" matches "cat-file.c" but not "mozilla-sha1/sha1.c".
    // A leading slash matches the beginning of the pathname
    /^\//,
    () => '^',
    SLASH
  ],

  // replace special metacharacter slash after the leading slash
  [
    /\//g,
    () => '\\/',
    SLASH
  ],

  [
    // > A leading "**" followed by a slash means match in all directories.
    // > For example, "**/foo" matches file or directory "foo" anywhere,
    // > the same as pattern "foo".
    // > "**/foo/bar" matches file or directory "bar" anywhere that is directly
    // >   under directory "foo".
    // Notice that the '*'s have been replaced as '\\*'
    /^\^*(?:\\\*\\\*\\\/)+/,

    // '**/foo' <-> 'foo'
    () => '(?:^|\\/)',
    '*'
  ],

  // starting
  [
    // there will be no leading '/'
    //   (which has been replaced by section "leading slash")
    // If starts with '**', adding a '^' to the regular expression also works
    DIRECT,
    (source, pattern) => {
      // Nothing to anchor to, or already anchored (`^` or `(?:^|\/)`)
      if (!source || source[0] === '^' || source[0] === '(') {
        return source
      }

      // If has a slash `/` at the beginning or middle
      const anchor = !REGEX_INNER_SLASH.test(pattern)
        // > Prior to 2.22.1
        // > If the pattern does not contain a slash /,
        // >   Git treats it as a shell glob pattern
        // Actually, if there is only a trailing slash,
        //   git also treats it as a shell glob pattern

        // After 2.22.1 (compatible but clearer)
        // > If there is a separator at the beginning or middle (or both)
        // > of the pattern, then the pattern is relative to the directory
        // > level of the particular .gitignore file itself.
        // > Otherwise the pattern may also match at any level below
        // > the .gitignore level.
        ? '(?:^|\\/)'

        // > Otherwise, Git treats the pattern as a shell glob suitable for
        // >   consumption by fnmatch(3)
        : '^'

      return anchor + source
    }
  ],

  // two globstars
  [
    // Use lookahead assertions so that we could match more than one `'/**'`
    /\\\/\\\*\\\*(?=\\\/|$)/g,

    // Zero, one or several directories
    // should not use '*', or it will be replaced by the next replacer

    // Check if it is not the last `'/**'`
    (_, index, str) => index + 6 < str.length

      // case: /**/ at the end of the pattern, i.e. a trailing `'/**/'`
      // > A trailing `"/**/"` (a trailing `"/**"` restricted to directories)
      // >   matches everything inside, but it should not match the current
      // >   folder itself, so it requires at least one directory segment.
      // 'a/**/' matches 'a/b/', 'a/x/y/' but not 'a/'
      ? str.slice(index + 6) === '\\/'
        ? '(?:\\/[^\\/]+)+'

        // case: /**/
        // > A slash followed by two consecutive asterisks then a slash matches
        // >   zero or more directories.
        // > For example, "a/**/b" matches "a/b", "a/x/b", "a/x/y/b" and so on.
        // '/**/'
        : '(?:\\/[^\\/]+)*'

      // case: /**
      // > A trailing `"/**"` matches everything inside.

      // #21: everything inside but it should not include the current folder,
      //   resolved by `_make`
      : `\\/${TRAILING_DOUBLESTAR}`,
    '*'
  ],

  // normal intermediate wildcards
  [
    // Never replace escaped '*'
    // ignore rule '\*' will match the path '*'

    // 'abc.*/' -> go
    // 'abc.*'  -> skip this rule,
    //    coz trailing single wildcard will be handed by [trailing wildcard]
    /(^|[^\\])(?:\\\*)+(?!$)/g,

    // '*.js' matches '.js'
    // '*.js' doesn't match 'abc'
    // 1. An asterisk "*" matches anything except a slash.
    // 2. Other consecutive asterisks are considered regular asterisks
    //    and collapse into one non-slash wildcard run.
    (_, p1) => p1 + WILDCARD,
    '*'
  ],

  // trailing wildcard, held apart from a literal star
  [
    // The step above leaves a trailing `*` alone, so a single `\*` is all that
    //   can be left at the end here, and what stands in front of it says which
    //   kind it is. A wildcard arrives as the escaper wrote it, `\*` with
    //   nothing before it; a literal arrives as the user's own escape, which
    //   the escaper doubled, and then the star's own -- `\\` and then `\*`.
    //   There is no third case: every backslash still reaching the chain is
    //   one `\*`, `\[` or `\ ` carries itself, and each is followed by its
    //   own character, so a longer run can never form. This runs while the
    //   two are still distinct, before the unescape steps below collapse the
    //   literal onto the very `\*` a wildcard leaves behind.
    /(^|[^\\])((?:\\\\)*)\\\*$/,

    (match, p1, p2) =>
      p2 === EMPTY
        // A real wildcard: carry it to `_make` as the marker, so the unescape
        //   steps and the trailing-wildcard rewrite can never mistake it for a
        //   literal `\*` (nor the reverse).
        ? p1 + TRAILING_WILDCARD
        // A literal star: leave it exactly as it stands for the unescape steps.
        : match,
    '*'
  ],

  [
    // unescape, revert step 3 except for back slash
    // For example, if a user escape a '\\*',
    // after step 3, the result will be '\\\\\\*'
    /\\\\\\(?=[$.|*+(){^])/g,
    () => ESCAPE,
    ESCAPE + ESCAPE
  ],

  [
    // '\\\\' -> '\\'
    /\\\\/g,
    () => ESCAPE,
    ESCAPE + ESCAPE
  ],

  [
    // Every real bracket expression -- POSIX classes included -- has already
    //   been held aside by `extractBrackets`, so the only `[` left in the
    //   pattern is an escaped, literal one.

    // A backslash could only stand at the end of the range if it quoted the
    //   `]`, and `\]` is held aside long before this.
    /\\\[([^\]/]*?)($|\])/g,

    // '\\[bar]' -> '\\\\[bar]'
    (match, range, close) => `\\[${range}${close}`,
    '['
  ],

  // ending
  [
    // 'js' will not match 'js.'
    // 'ab' will not match 'abc'
    DIRECT,

    // WTF!
    // https://git-scm.com/docs/gitignore
    // changes in [2.22.1](https://git-scm.com/docs/gitignore/2.22.1)
    // which re-fixes #24, #38

    // > If there is a separator at the end of the pattern then the pattern
    // > will only match directories, otherwise the pattern can match both
    // > files and directories.

    // 'js*' will not match 'a.js'
    // 'js/' will not match 'a.js'
    // 'js' will match 'a.js' and 'a.js/'
    source => {
      const last = source[source.length - 1]

      // The pattern is empty, or ends in a pending marker `_make` owns --
      //   the trailing wildcard, or a trailing "/**". A trailing `*` that is
      //   not the marker is a literal star, which anchors like any other
      //   final character.
      if (!last || last === TRAILING_WILDCARD || last === TRAILING_DOUBLESTAR) {
        return source
      }

      return last === SLASH
        // foo/ will not match 'foo'
        ? `${source}$`
        // foo matches 'foo' and 'foo/'
        : `${source}(?=$|\\/$)`
    }
  ]
]

const REGEX_REPLACE_TRAILING_WILDCARD = /(^|\\\/)?\uE000$/
const MODE_IGNORE = 'regex'
const MODE_CHECK_IGNORE = 'checkRegex'
const UNDERSCORE = '_'

const replaceTrailingWildcard = (_, p1) => {
  const prefix = p1
    // '\^':
    // '/*' does not match EMPTY
    // '/*' does not match everything

    // '\\\/':
    // 'abc/*' does not match 'abc/'
    ? `${p1}[^/]+`

    // 'a*' matches 'a'
    // 'a*' matches 'aa'
    : '[^/]*'

  return `${prefix}(?=$|\\/$)`
}

const REGEX_REPLACE_TRAILING_DOUBLESTAR = /\uE001$/

// 'abc/**' matches everything under 'abc', but not 'abc/' itself (#21):
//   requiring one arbitrary character (line terminators included, #176)
//   after 'abc/' is necessary and sufficient for `.test(path)`.
const replaceTrailingDoublestar = () => '[\\s\\S]'

// The fixed piece between the wildcard at `at` and the next wildcard of the
//   run: the tokens that separate them, joined as they appear in the source.
//   A run never holds two wildcards in a row, so there is always at least one
//   token.
const separatorAfter = (run, at) => {
  let separator = EMPTY

  for (let index = at + 1; index < run.length && !run[index].wildcard; index ++) {
    separator += run[index].single
  }

  return separator
}

// Where a run of non-slash wildcards is split by fixed pieces --
//   `[^/]*ab[^/]*cd...` -- the engine has many equivalent ways to lay the
//   input across the wildcards, and on input that does not match it works
//   through all of them, so the time grows with the number of wildcards
//   rather than the length of the path. Every wildcard but the last in such a
//   run can be pinned to stop where the piece after it begins, which leaves
//   one way to lay out the input and no rewinding, without changing which
//   paths match: the fixed pieces still bound the count, and the last
//   wildcard still absorbs the rest.
//
// A wildcard is pinned to the whole piece, never to the piece's first
//   character. The pin leaves no way back, so a wildcard that stopped at that
//   first character would hand over wherever the character happens to turn
//   up, including the places the rest of the piece cannot follow -- which is
//   how `f*o/*/*` came to miss `foo/b/c`, the first `o` of `foo` not being
//   the one the `o/` after it needs. Every token of a piece matches exactly
//   one character, so the first place the whole piece fits is the leftmost
//   place it can sit, and whatever is left over goes to the wildcards that
//   follow.
//
// The source is read one token at a time -- a wildcard, a single-character
//   piece (a literal, an escape, a class), or a parenthesised group or anchor
//   that ends the run -- so only a genuine wildcard is touched.
const pinWildcards = source => {
  if (source.indexOf(WILDCARD) < 0) {
    return source
  }

  const tokens = []
  const {length} = source
  let index = 0

  while (index < length) {
    const char = source[index]

    if (source.startsWith(WILDCARD, index)) {
      tokens.push({wildcard: true})
      index += WILDCARD.length
    } else if (char === '[') {
      let end = index + 1

      if (source[end] === '^') {
        end ++
      }

      if (source[end] === ']') {
        end ++
      }

      while (end < length && source[end] !== ']') {
        end += source[end] === ESCAPE
          ? 2
          : 1
      }

      end ++
      tokens.push({single: source.slice(index, end)})
      index = end
    } else if (char === ESCAPE) {
      tokens.push({single: source.slice(index, index + 2)})
      index += 2
    } else if (char === '(') {
      let depth = 0
      let end = index

      do {
        if (source[end] === ESCAPE) {
          end ++
        } else if (source[end] === '(') {
          depth ++
        } else if (source[end] === ')') {
          depth --
        }

        end ++
      } while (end < length && depth > 0)

      if ('*+?'.indexOf(source[end]) >= 0) {
        end ++
      }

      tokens.push({boundary: source.slice(index, end)})
      index = end
    } else if (char === '^' || char === '$') {
      tokens.push({boundary: char})
      index ++
    } else {
      tokens.push({single: char})
      index ++
    }
  }

  let out = EMPTY
  let run = []

  const flush = () => {
    let lastWildcard

    run.forEach((token, at) => {
      if (token.wildcard) {
        lastWildcard = at
      }
    })

    run.forEach((token, at) => {
      if (!token.wildcard) {
        out += token.single
        return
      }

      // Every wildcard but the last is pinned to the whole piece that
      //   follows it, for the reason set out above this function. The last
      //   one stays as it is and takes up the rest.
      out += at === lastWildcard
        ? WILDCARD
        : `(?:(?!${separatorAfter(run, at)})[^\\/])*`
    })

    run = []
  }

  tokens.forEach(token => {
    if (token.boundary === undefined) {
      run.push(token)
      return
    }

    flush()
    out += token.boundary
  })

  flush()

  return out
}

// @param {pattern}
const makeRegexPrefix = pattern => {
  // `/**` matches every path, as `**` does. The translation below only finds
  //   a globstar beside a slash it keeps, and the leading one is turned into
  //   an anchor, so `/**` would come out as `/*` and match one level only.
  //   Here rather than in `createRule`, so that `checkSourceOf`, which
  //   compiles `/**/` again without its trailing slash, gets it too.
  if (REGEX_ANCHORED_GLOBSTAR.test(pattern)) {
    pattern = '**'
  }

  const {source, sources} = extractBrackets(pattern)

  const replaced = REPLACERS.reduce(
    // A pass whose matcher finds nothing hands back the very string it was
    //   given, so asking first costs a search and saves a rewrite. Ten of the
    //   fifteen passes never fire for a typical .gitignore line, and between
    //   them they were 45% of this chain.
    (prev, [matcher, replacer, required]) => {
      if (matcher === DIRECT) {
        return replacer(prev, pattern)
      }

      if (required !== UNDEFINED && prev.indexOf(required) < 0) {
        return prev
      }

      // A pass whose matcher finds nothing hands back the very string it was
      //   given, so asking first costs a search and saves a rewrite.
      return matcher.test(prev)
        ? prev.replace(matcher, replacer.bind(pattern))
        : prev
    },
    source
  )

  // Most patterns hold no bracket expression at all, and then there is
  //   nothing to put back.
  return sources.length
    ? replaced.replace(
      REGEX_RESTORE_PLACEHOLDER,
      (match, index) => sources[index]
    )
    : replaced
}

// `checkRegex` tests a path with a trailing slash, 'abc/', the way
//   `git check-ignore` matches that literal string once the directory itself
//   is known not to be excluded (see `checkIgnore`): a trailing '/' of the
//   pattern is dropped, a basename pattern sees an empty basename, and only a
//   pattern whose last segment is a pending wildcard can match what is left
//   after the final slash -- 'abc/*' and 'abc/**' match 'abc/', and 'abc/**'
//   also matches 'abc/d/' (#77, #169).
const checkSourceOf = (body, prefix) => {
  if (body[body.length - 1] === SLASH) {
    prefix = makeRegexPrefix(body.slice(0, - 1))
  }

  const head = prefix.slice(0, - 1)
  const last = prefix[prefix.length - 1]

  return last === TRAILING_WILDCARD
    ? `${head}$`
    : last === TRAILING_DOUBLESTAR
      ? head
      : NEVER_MATCH
}

// A trailing slash does not stop a pattern being basename-only: it restricts
//   the match to a directory, it does not let the pattern reach across one.
//   Everything else a pattern can hold -- a wildcard, a character class, an
//   escape -- stays inside a single path segment too, so a pattern with no
//   separator in it can only ever describe the last one.
const matchesBasename = body => {
  const index = body.indexOf(SLASH)

  return index < 0 || index === body.length - 1
}

// The last segment of a path, keeping a trailing slash, because a pattern that
//   ends in one matches only a directory.
// 'a/b/c.js' -> 'c.js';  'a/b/' -> 'b/';  'c.js' -> 'c.js' (no copy made)
const basenameOf = path => {
  const end = path.length - 1

  const index = path.lastIndexOf(
    SLASH,
    path[end] === SLASH
      ? end - 1
      : end
  )

  return index < 0
    ? path
    : path.slice(index + 1)
}

// The parent directory of a path, with its trailing separator, or EMPTY when
//   the path has none.
// 'a/b/c' -> 'a/b/';  'a/b/' -> 'a/';  'a' -> EMPTY;  'a/' -> EMPTY
//
// A path holding an empty segment has to be taken apart, because its
//   ancestors are not prefixes of it: the parent of 'a//b' is 'a/', not
//   'a//', and the parent of '/a/' is nothing at all. Both shapes reach here
//   -- 'a//b' is accepted outright, and `checkIgnore` does not put the path
//   it is given through the relative-path check.
//
// Every other path is a prefix of itself, and cutting one costs a fraction of
//   splitting it into an array and joining that back at every level: 73ns
//   against 207ns.
const parentOf = path => {
  if (
    path.charCodeAt(0) === SLASH_CODE
    || path.indexOf(DOUBLE_SLASH) >= 0
  ) {
    const slices = path.split(SLASH).filter(Boolean)

    slices.pop()

    return slices.length
      ? slices.join(SLASH) + SLASH
      : EMPTY
  }

  const end = path.length - 1

  // Look back from before a trailing separator, since that one belongs to the
  //   path itself.
  //
  // A negative place to start would be a trap here: `lastIndexOf` clamps one
  //   to 0 and searches there rather than reporting no match, so '/' would
  //   come back as its own parent and the walk would never end. It cannot
  //   happen -- that is the only path short enough to produce one, and the
  //   test above has already sent it the other way.
  const cut = path.lastIndexOf(
    SLASH,
    path.charCodeAt(end) === SLASH_CODE
      ? end - 1
      : end
  )

  return cut < 0
    ? EMPTY
    : path.slice(0, cut + 1)
}

const isString = subject => typeof subject === 'string'

// Blank lines, comments and trailing lone backslashes are told by
//   `createRule`, once the pattern is normalized.
const checkPattern = pattern => pattern
  && isString(pattern)

// Git drops one CR before each LF, and one at the end of a final line that
//   has no LF after it.
const splitPattern = pattern => (
  pattern[pattern.length - 1] === '\r'
    ? pattern.slice(0, - 1)
    : pattern
)
.split(REGEX_SPLITALL_CRLF)
.filter(Boolean)

class IgnoreRule {
  constructor (
    pattern,
    mark,
    body,
    ignoreCase,
    negative,
    prefix
  ) {
    this.pattern = pattern
    this.mark = mark
    this.negative = negative

    define(this, 'body', body)
    define(this, 'ignoreCase', ignoreCase)
    define(this, 'regexPrefix', prefix)
  }

  // Worked out on first use and kept behind an own property, the way `regex`
  //   caches itself in `_regex`. Deciding it in the constructor instead would
  //   add a fourth `defineProperty` to every rule ever built, which cost 4% of
  //   every compile -- including the compiles of rules that are never matched
  //   against anything.
  get _basenameOnly () {
    return define(this, '_basenameOnly', matchesBasename(this.body))
  }

  get regex () {
    const key = UNDERSCORE + MODE_IGNORE

    if (this[key]) {
      return this[key]
    }

    return this._make(MODE_IGNORE, key)
  }

  get checkRegex () {
    const key = UNDERSCORE + MODE_CHECK_IGNORE

    if (this[key]) {
      return this[key]
    }

    return this._make(MODE_CHECK_IGNORE, key)
  }

  _make (mode, key) {
    const str = pinWildcards(
      mode === MODE_IGNORE
        ? this.regexPrefix
        .replace(REGEX_REPLACE_TRAILING_WILDCARD, replaceTrailingWildcard)
        .replace(REGEX_REPLACE_TRAILING_DOUBLESTAR, replaceTrailingDoublestar)
        : checkSourceOf(this.body, this.regexPrefix)
    )

    const regex = this.ignoreCase
      ? new RegExp(str, 'i')
      : new RegExp(str)

    return define(this, key, regex)
  }
}

const hasTrailingBackslash = str => {
  let count = 0

  while (str[str.length - count - 1] === ESCAPE) {
    count ++
  }

  return count % 2 === 1
}

// Read a line the way git does: when `stripLineEnd` is set (an unsplit array
//   or object pattern), drop any trailing blank lines along with the LF
//   before each and at most one CR at the end of the line; then trim trailing
//   spaces in the same backward pass. Git trims spaces only, and a space
//   escaped by an odd run of backslashes stays, unescaped, as the last one.
// Scanned from the end: a regular expression can only try each start in
//   turn, which is quadratic over a long run of spaces or backslashes.
// 'a  ' -> 'a';  'a\ ' -> 'a ';  'a\\ ' -> 'a\\';  'a\t' -> 'a\t'
// 'a\r\n' -> 'a';  'a\r\r' -> 'a\r';  'a\n\r' -> 'a'
const trimEnd = (body, stripLineEnd) => {
  let lineEnd = body.length
  let end

  for (;;) {
    if (stripLineEnd && body[lineEnd - 1] === '\r') {
      lineEnd --
    }

    end = lineEnd

    while (body[end - 1] === SPACE) {
      end --
    }

    if (!stripLineEnd || body[end - 1] !== '\n') {
      break
    }

    lineEnd = end - 1
  }

  if (end === lineEnd) {
    return body.slice(0, lineEnd)
  }

  let backslashes = 0

  while (body[end - backslashes - 1] === ESCAPE) {
    backslashes ++
  }

  return backslashes % 2
    ? body.slice(0, end - 1) + SPACE
    : body.slice(0, end)
}

const createRule = (
  pattern,
  mark,
  ignoreCase,
  stripLineEnd,
  stripBOM
) => {
  // Git drops a BOM before it reads the first line, so before anything else.
  let body = stripBOM && pattern[0] === BOM
    ? pattern.slice(1)
    : pattern

  // > A line starting with # serves as a comment.
  if (body[0] === '#') {
    return
  }

  let negative = false

  // > An optional prefix "!" which negates the pattern;
  if (body[0] === '!') {
    negative = true
    body = body.slice(1)
  }

  // Normalize the body before checking which slashes anchor the pattern.
  //   Otherwise `bar/ ` is mistaken for a pattern containing an inner slash.
  //   A line from `splitPattern` has already lost its line ending, so only a
  //   trailing space remains to trim there.
  const last = body[body.length - 1]

  if (
    last === SPACE
    || stripLineEnd && (last === '\r' || last === '\n')
  ) {
    body = trimEnd(body, stripLineEnd)
  }

  // > A blank line matches no files, so it can serve as a separator for
  // >   readability.
  // Nor does a lone "!", a pattern ending on an unpaired backslash, or
  //   anything else left empty here: an empty pattern would compile to a
  //   regex matching every path.
  if (!body || hasTrailingBackslash(body)) {
    return
  }

  body = body
  // > Put a backslash ("\") in front of the first "!" for patterns that
  // >   begin with a literal "!", for example, `"\!important!.txt"`.
  .replace(REGEX_REPLACE_LEADING_EXCAPED_EXCLAMATION, '!')
  // > Put a backslash ("\") in front of the first hash for patterns that
  // >   begin with a hash.
  .replace(REGEX_REPLACE_LEADING_EXCAPED_HASH, '#')

  const regexPrefix = makeRegexPrefix(body)

  return new IgnoreRule(
    pattern,
    mark,
    body,
    ignoreCase,
    negative,
    regexPrefix
  )
}

class RuleManager {
  constructor (ignoreCase) {
    this._ignoreCase = ignoreCase
    this._rules = []

    // How many of the rules git would tag `EXC_FLAG_NODIR`.
    //
    // The scan uses it to decide, once for the whole set, whether handing
    //   those rules the basename is worth what it costs the others. The
    //   shortcut saves a full-path scan on every rule it applies to and costs
    //   a check on every rule it does not, so a set where almost nothing is
    //   basename-only comes out behind -- a 955 pattern set with 44 of them
    //   measured 19% slower with the shortcut always on.
    //
    // Deciding this by measurement rather than by meaning is safe: a
    //   basename-only pattern gives the very same answer against the whole
    //   path, it just takes longer to say so. The choice can only change how
    //   fast the scan runs, never what it returns.
    this._basenameCount = 0
  }

  _add (pattern, index) {
    // #32
    if (pattern && pattern[KEY_IGNORE]) {
      this._rules = this._rules.concat(pattern._rules._rules)
      this._basenameCount += pattern._rules._basenameCount
      this._added = true
      return
    }

    const isStr = isString(pattern)
    const raw = isStr
      ? pattern
      : pattern.pattern

    const rule = checkPattern(raw)
      && createRule(
        raw,
        isStr ? UNDEFINED : pattern.mark,
        this._ignoreCase,
        !this._split,
        this._stripBOM && !index
      )

    if (rule) {
      this._added = true
      this._rules.push(rule)

      // Deliberately not `rule._basenameOnly`: reading that would materialise
      //   the rule's own copy, and the whole point of leaving it lazy is that
      //   a rule which is compiled and never matched never pays for it.
      if (matchesBasename(rule.body)) {
        this._basenameCount ++
      }
    }
  }

  // @param {Array<string> | string | Ignore} pattern
  add (pattern) {
    this._added = false
    this._split = isString(pattern)
    this._stripBOM = !this._split || pattern[0] === BOM

    makeArray(
      this._split
        ? splitPattern(pattern)
        : pattern
    ).forEach(this._add, this)

    if (this._added) {
      this._literalRules = UNDEFINED
    }

    return this._added
  }

  // Match the literal 'abc/' for `checkIgnore`, last rule wins. Only a rule
  //   ending in a wildcard can match it (see `checkSourceOf`), so the rest
  //   are left out once, rather than tested or compiled for every path.
  testLiteral (path) {
    const rules = this._literalRules || (
      this._literalRules = this._rules.filter(
        ({body}) => body[body.length - (
          body[body.length - 1] === SLASH ? 2 : 1
        )] === '*'
      )
    )

    let ignored = false
    let unignored = false
    let matchedRule

    for (let index = rules.length - 1; index >= 0; index --) {
      const rule = rules[index]

      if (rule.checkRegex.test(path)) {
        ignored = !rule.negative
        unignored = rule.negative
        matchedRule = rule.negative
          ? UNDEFINED
          : rule
        break
      }
    }

    const ret = {
      ignored,
      unignored
    }

    if (matchedRule) {
      ret.rule = matchedRule
    }

    return ret
  }

  // Test one single path without recursively checking parent directories
  //
  // - mode `string` either `MODE_IGNORE` or `MODE_CHECK_IGNORE`

  // @returns {TestResult}
  test (path, mode) {
    // Most of a .gitignore is patterns with no slash in them, and running
    //   those against the whole path makes the regular expression engine walk
    //   every directory name on the way to the only segment that could match.
    //   Handing them the basename instead is what git does, and it is where
    //   the time in a directory walk goes: the rule scan was two thirds of it.
    const rules = this._rules
    const {length} = rules

    const shortcut = this._basenameCount * 2 >= length

    const basename = shortcut
      ? basenameOf(path)
      : path

    // The last rule to match decides, as in git, and it is the rule
    //   `git check-ignore -v` reports, so the scan runs from the end and stops
    //   at the first match.
    // A plain loop rather than `forEach`, so that `path`, `basename` and
    //   `shortcut` are locals. As a callback they became closure variables,
    //   and reaching for one of those once per rule cost 10% of a scan over a
    //   large rule set -- more than the shortcut they were there to serve.
    for (let index = length - 1; index >= 0; index --) {
      const rule = rules[index]

      if (rule[mode].test(
        shortcut && rule._basenameOnly
          ? basename
          : path
      )) {
        const {negative} = rule

        const ret = {
          ignored: !negative,
          unignored: negative
        }

        if (!negative) {
          ret.rule = rule
        }

        return ret
      }
    }

    return {
      ignored: false,
      unignored: false
    }
  }
}

const throwError = (message, Ctor) => {
  throw new Ctor(message)
}

const checkPath = (path, originalPath, doThrow) => {
  if (!isString(path)) {
    return doThrow(
      `path must be a string, but got \`${originalPath}\``,
      TypeError
    )
  }

  // We don't know if we should ignore EMPTY, so throw
  if (!path) {
    return doThrow(`path must not be empty`, TypeError)
  }

  // Check if it is a relative path
  if (checkPath.isNotRelative(path)) {
    const r = '`path.relative()`d'
    return doThrow(
      `path should be a ${r} string, but got "${originalPath}"`,
      RangeError
    )
  }

  return true
}

// > pathname should be a `path.relative()`d one
//
// The same thing `REGEX_TEST_INVALID_PATH` says, spelled out: a path is not
//   relative if it begins with a separator, or with `./` or `../`, or is
//   nothing but `.` or `..`. Every match is decided by the first three
//   characters, and this runs on every path handed to the library -- where it
//   was 55% of a cached lookup, more than the cache lookup itself.
const isNotRelative = path => {
  const first = path.charCodeAt(0)

  if (first === SLASH_CODE) {
    return true
  }

  if (first !== DOT_CODE) {
    return false
  }

  // '.'
  if (path.length === 1) {
    return true
  }

  const second = path.charCodeAt(1)

  // './'
  if (second === SLASH_CODE) {
    return true
  }

  if (second !== DOT_CODE) {
    return false
  }

  // '..' or '../'
  return path.length === 2 || path.charCodeAt(2) === SLASH_CODE
}

checkPath.isNotRelative = isNotRelative

// On windows, the following function will be replaced
/* istanbul ignore next */
checkPath.convert = p => p


const convertPath = target =>
  isString(target) && checkPath.convert(target)


class Ignore {
  constructor ({
    ignorecase = true,
    ignoreCase = ignorecase,
    allowRelativePaths = false
  } = {}) {
    define(this, KEY_IGNORE, true)

    this._rules = new RuleManager(ignoreCase)
    this._strictPathCheck = !allowRelativePaths
    this._initCache()
  }

  _initCache () {
    // A cache for the result of `.ignores()`
    this._ignoreCache = Object.create(null)

    // A cache for the result of `.test()`
    this._testCache = Object.create(null)
  }

  add (pattern) {
    if (this._rules.add(pattern)) {
      // Some rules have just added to the ignore,
      //   making the behavior changed,
      //   so we need to re-initialize the result cache
      this._initCache()
    }

    return this
  }

  // legacy
  addPattern (pattern) {
    return this.add(pattern)
  }

  // @returns {TestResult}
  _test (originalPath, cache, path) {
    checkPath(
      path,
      originalPath,
      this._strictPathCheck
        ? throwError
        : RETURN_FALSE
    )

    return path
      ? this._t(path, cache)
      : {
        ignored: false,
        unignored: false
      }
  }

  checkIgnore (target) {
    // A Windows path is converted first, so that a directory given with a
    //   trailing separator, `\` or `/`, is told the same way
    const path = convertPath(target)

    // If the path does not end with a slash, `.ignores()` is much equivalent
    //   to `git check-ignore`
    if (!path || path.charCodeAt(path.length - 1) !== SLASH_CODE) {
      return this._test(target, this._testCache, path)
    }

    // Like `git check-ignore`: a directory excluded by itself or by an
    //   ancestor settles it, and only then is the literal 'abc/' matched
    //   against the rules (see `checkSourceOf`).
    const dir = this._t(path, this._testCache)

    if (dir.ignored) {
      return dir
    }

    const literal = this._rules.testLiteral(path)

    return literal.ignored || literal.unignored
      ? literal
      : dir
  }

  _t (
    // The path to be tested
    path,

    // The cache for the result of a certain checking
    cache
  ) {
    if (path in cache) {
      return cache[path]
    }

    const parentPath = parentOf(path)

    // If the path contains a parent directory, check the parent first
    const parent = parentPath
      ? this._t(parentPath, cache)
      : UNDEFINED

    return cache[path] = parent && parent.ignored
      // > It is not possible to re-include a file if a parent directory of
      // >   that file is excluded.
      ? parent
      : this._rules.test(path, MODE_IGNORE)
  }

  ignores (path) {
    return this._test(path, this._ignoreCache, convertPath(path)).ignored
  }

  createFilter () {
    return path => !this.ignores(path)
  }

  filter (paths) {
    return makeArray(paths).filter(this.createFilter())
  }

  // @returns {TestResult}
  test (path) {
    return this._test(path, this._testCache, convertPath(path))
  }
}

const factory = options => new Ignore(options)

const isPathValid = path =>
  checkPath(convertPath(path), path, RETURN_FALSE)

/* istanbul ignore next */
const setupWindows = () => {
  /* eslint no-control-regex: "off" */
  const makePosix = str => /^\\\\\?\\/.test(str)
  || /["<>|\u0000-\u001F]+/u.test(str)
    ? str
    : str.replace(/\\/g, '/')

  checkPath.convert = makePosix

  // 'C:\\foo'     <- 'C:\\foo' has been converted to 'C:/'
  // 'd:\\foo'
  const REGEX_TEST_WINDOWS_PATH_ABSOLUTE = /^[a-z]:\//i
  checkPath.isNotRelative = path =>
    REGEX_TEST_WINDOWS_PATH_ABSOLUTE.test(path)
    || isNotRelative(path)
}


// Windows
// --------------------------------------------------------------
/* istanbul ignore next */
if (
  // Detect `process` so that it can run in browsers.
  typeof process !== 'undefined'
  && process.platform === 'win32'
) {
  setupWindows()
}

// COMMONJS_EXPORTS ////////////////////////////////////////////////////////////

module.exports = factory

// Although it is an anti-pattern,
//   it is still widely misused by a lot of libraries in github
// Ref: https://github.com/search?q=ignore.default%28%29&type=code
factory.default = factory

module.exports.isPathValid = isPathValid

// For testing purposes
define(module.exports, Symbol.for('setupWindows'), setupWindows)


/***/ }),

/***/ 5011:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Q6: () => (/* binding */ userArg),
/* harmony export */   _c: () => (/* binding */ currentIdentity),
/* harmony export */   s$: () => (/* binding */ containerRunArgs)
/* harmony export */ });
/* unused harmony export mountArg */
/* harmony import */ var _labels_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9667);

/** The runner's uid:gid: containers run as it, so that what they write belongs to the runner. */
function currentIdentity() {
    return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
}
function userArg(id = currentIdentity()) {
    return `${id.uid}:${id.gid}`;
}
/** A mount in `--mount` syntax (CSV: a field with a comma or quote is quoted). */
function mountArg(engine, mount, bindSource = (f) => f) {
    const fields = [`type=${mount.type}`];
    if (mount.type === 'bind')
        fields.push(`source=${bindSource(mount.source)}`);
    else if (mount.type === 'volume')
        fields.push(`source=${mount.source}`);
    fields.push(`target=${mount.target}`);
    // `ro`, not `readonly`: Podman (4.3) refuses `readonly` on volume mounts; both engines take `ro`.
    if (mount.type !== 'tmpfs' && mount.readonly)
        fields.push('ro');
    if (mount.type === 'tmpfs') {
        fields.push('tmpfs-mode=0755');
        // Podman copies what the folder holds into the tmpfs unless told not to: the very files it must hide.
        if (engine === 'podman')
            fields.push('notmpcopyup');
    }
    return fields.map((f) => (/[",]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',');
}
/**
 * `bindSource` maps each bind source to the engine's side (the action may run in a container of the
 * engine): this is the one place bind sources are written, whatever builds the mounts.
 */
function containerRunArgs(engine, spec, bindSource = (f) => f) {
    const args = ['run'];
    if (spec.remove)
        args.push('--rm');
    if (spec.name)
        args.push('--name', spec.name);
    if (spec.init && engine === 'docker')
        args.push('--init');
    const joined = spec.joinNetworkOf ? `container:${spec.joinNetworkOf}` : undefined;
    const userns = joined && engine === 'podman' ? [`--userns=${joined}`] : (spec.userns ?? []);
    args.push(...userns, '--user', spec.user, '--cap-drop', 'ALL');
    for (const cap of spec.capAdd ?? [])
        args.push('--cap-add', cap);
    args.push('--security-opt', 'no-new-privileges');
    const limits = spec.limits ?? {};
    args.push('--pids-limit', String(limits.pidsLimit ?? 1024), '--network', joined ?? limits.network ?? 'none');
    if (limits.memory)
        args.push('--memory', limits.memory, '--memory-swap', limits.memory);
    if (limits.cpus)
        args.push('--cpus', limits.cpus);
    if (limits.readOnlyRootfs)
        args.push('--read-only', '--tmpfs', '/tmp:rw,exec,nosuid,size=512m');
    for (const [key, value] of Object.entries({ [_labels_js__WEBPACK_IMPORTED_MODULE_0__/* .MANAGED_LABEL */ .bS]: 'true', ...spec.labels }))
        args.push('--label', `${key}=${value}`);
    for (const mount of spec.mounts)
        args.push('--mount', mountArg(engine, mount, bindSource));
    if (spec.workdir)
        args.push('--workdir', spec.workdir);
    for (const [key, value] of Object.entries(spec.env ?? {}))
        args.push('-e', `${key}=${value}`);
    if (spec.envFile)
        args.push('--env-file', spec.envFile);
    for (const key of spec.inheritEnv ?? [])
        args.push('-e', key);
    return [...args, '--entrypoint', spec.entrypoint, '--', spec.image, ...spec.args];
}


/***/ }),

/***/ 389:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   FR: () => (/* binding */ engineFailure),
/* harmony export */   NJ: () => (/* binding */ EngineError),
/* harmony export */   TM: () => (/* binding */ firstLine)
/* harmony export */ });
class EngineError extends Error {
    constructor(message) {
        super(message);
        this.name = 'EngineError';
    }
}
/** A non-zero exit of `<engine> args...`, told as unreachable when the engine's words say so. */
function engineFailure(engine, args, result) {
    const detail = (result.stderr || result.stdout).trim();
    if (/Cannot connect to the Docker daemon|Is the docker daemon running|connect: (no such file|connection refused|permission denied)|unable to connect to Podman|cannot connect to Podman/i.test(detail)) {
        return new EngineError(`The ${engine} engine is unreachable: ${firstLine(detail)}`);
    }
    return new EngineError(`${engine} ${args[0]} ${args[1] ?? ''} failed (exit ${result.exitCode}): ${detail}`);
}
function firstLine(text) {
    return text.split('\n')[0] ?? '';
}


/***/ }),

/***/ 1665:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  X4: () => (/* binding */ ENGINE_ENV),
  P: () => (/* binding */ createEngine)
});

// UNUSED EXPORTS: ContainerEngine

// EXTERNAL MODULE: ./src/engine/container-args.ts
var container_args = __nccwpck_require__(5011);
// EXTERNAL MODULE: ./src/engine/engine-error.ts
var engine_error = __nccwpck_require__(389);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
;// CONCATENATED MODULE: ./src/engine/helper-run.ts
// A helper container under its time limit: when the limit runs out, the container itself is stopped and
// removed by its name, since killing the engine CLI alone would leave it running.



/** How long the engine CLI may take to return once its container was removed, before it is killed. */
const CLI_GRACE_MS = 5_000;
/**
 * Runs a helper container under its time limit (time-limits.ts). When the limit runs out, the container
 * itself is killed and removed by its name: killing the CLI alone would leave it running. The CLI is
 * killed too if it has not returned a few seconds later, and the name is removed once more after the
 * CLI is gone (the engine may have created the container only then). Throws a TimeLimitError. A
 * container whose output went over `stdoutFile.maxBytes` is removed the same way.
 */
async function runHelperContainer(engine, spec, run, options = {}) {
    const name = spec.name ?? `worktree-sandbox-${run.work}-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`;
    const args = run.unmapped
        ? (0,container_args/* containerRunArgs */.s$)(engine.name, { ...spec, name }, await engine.bindSource())
        : await engine.runArgs({ ...spec, name });
    const limitMs = (0,time_limits/* timeLimitMs */.PI)(run.work);
    const cli = new AbortController();
    let expired = false;
    let grace;
    const timer = setTimeout(() => {
        expired = true;
        grace = setTimeout(() => cli.abort(), CLI_GRACE_MS);
        void engine.stopContainer(name);
    }, limitMs);
    try {
        const result = await engine.stream(args, { ...options, signal: cli.signal });
        if (expired)
            throw new time_limits/* TimeLimitError */.$q(run.work, run.where, limitMs, run.consequence);
        // Output over its cap killed the CLI, not the container: it goes too.
        if (result.overLimit)
            await engine.stopContainer(name);
        return result;
    }
    finally {
        clearTimeout(timer);
        clearTimeout(grace);
        if (expired)
            await removeLateContainer(engine, name);
    }
}
/** After a timeout: the container is removed until the engine no longer knows it (a few tries). */
async function removeLateContainer(engine, name) {
    for (let attempt = 0; attempt < 5; attempt++) {
        await engine.stopContainer(name);
        if ((await engine.containerExists(name)) === false)
            return;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
}

// EXTERNAL MODULE: ./src/engine/inventory.ts
var inventory = __nccwpck_require__(3190);
// EXTERNAL MODULE: ./src/engine/host-paths.ts
var host_paths = __nccwpck_require__(6387);
// EXTERNAL MODULE: ./src/engine/start-failure.ts
var start_failure = __nccwpck_require__(8557);
;// CONCATENATED MODULE: ./src/engine/mode.ts

class EngineModeError extends Error {
    constructor(message) {
        super(message);
        this.name = 'EngineModeError';
    }
}
/** The arguments that make the engine describe itself as one JSON document. */
function infoArgs(engine) {
    // Docker 20.10 has no `--format json`; `{{json .}}` works in every version.
    return engine === 'podman' ? ['info', '--format', 'json'] : ['info', '--format', '{{json .}}'];
}
/** Asks the engine once (`info`) and returns its mode. Throws EngineModeError when the engine does not answer. */
async function detectEngineMode(engine, execFn) {
    const result = await execFn(infoArgs(engine));
    if (result.exitCode !== 0) {
        const detail = (result.stderr || result.stdout).trim();
        const explained = (0,start_failure/* explainStartFailure */.u)(detail);
        throw new EngineModeError(`${engine} info failed (exit ${result.exitCode}): ` +
            (explained ? `${explained.message} ${explained.hint}` : lastLine(detail)));
    }
    return parseEngineInfo(engine, result.stdout);
}
/** The mode, from the output of `info` (infoArgs). Pure. */
function parseEngineInfo(engine, stdout) {
    let info;
    try {
        info = JSON.parse(stdout);
    }
    catch {
        throw new EngineModeError(`${engine} info did not print JSON: ${lastLine(stdout.trim())}`);
    }
    if (!isObject(info))
        throw new EngineModeError(`${engine} info printed no JSON object`);
    return engine === 'podman' ? podmanMode(info) : dockerMode(info);
}
function podmanMode(info) {
    const host = objectAt(info, 'host');
    const rootless = objectAt(host, 'security').rootless === true;
    const version = stringAt(objectAt(info, 'version'), 'Version');
    const idMappings = objectAt(host, 'idMappings');
    return {
        engine: 'podman',
        rootless,
        uidMapping: rootless ? 'keep-id' : 'none',
        version,
        keepIdOptions: versionAtLeast(version, 4, 3),
        uidMap: rootless ? idMaps(idMappings.uidmap) : [],
        gidMap: rootless ? idMaps(idMappings.gidmap) : [],
        storageDriver: stringAt(objectAt(info, 'store'), 'graphDriverName'),
    };
}
function dockerMode(info) {
    const options = Array.isArray(info.SecurityOptions) ? info.SecurityOptions : [];
    // Rootless Docker maps container root to the invoking user and has no keep-id: a container that must
    // write as that user runs as root there. Reported, not handled here.
    const rootless = options.some((o) => typeof o === 'string' && o.split(',').includes('name=rootless'));
    return {
        engine: 'docker',
        rootless,
        uidMapping: 'none',
        version: stringAt(info, 'ServerVersion'),
        keepIdOptions: false,
        uidMap: [],
        gidMap: [],
        storageDriver: stringAt(info, 'Driver'),
    };
}
/**
 * The extra `run` arguments of a container whose user must be uid:gid inside and own its files on a bind
 * mount on the host (uid:gid being the invoking user's: process.getuid()/getgid()). Keep `--user uid:gid`
 * as well. Empty for rootful engines. Pure.
 */
function userNamespaceArgs(mode, uid, gid) {
    for (const [name, id] of [
        ['uid', uid],
        ['gid', gid],
    ]) {
        if (!Number.isSafeInteger(id) || id < 0)
            throw new EngineModeError(`invalid ${name}: ${id}`);
    }
    if (mode.uidMapping !== 'keep-id')
        return [];
    // Root, with a rootless engine: the action runs in one of its containers (a job container on rootless
    // Podman), where root is the user that runs the engine, and so is root inside a container under the
    // engine's default mapping. keep-id to uid 0 is no mapping at all (Podman 4.3 with runc cannot start it).
    if (uid === 0 && gid === 0)
        return [];
    if (mode.keepIdOptions)
        return [`--userns=keep-id:uid=${uid},gid=${gid}`];
    // Before Podman 4.3 keep-id takes no options: the invoking user keeps its own ids, which must be these.
    const user = mode.uidMap.find((m) => m.containerId === 0)?.hostId;
    const group = mode.gidMap.find((m) => m.containerId === 0)?.hostId;
    if ((user !== undefined && user !== uid) || (group !== undefined && group !== gid)) {
        throw new EngineModeError(`podman ${mode.version} maps only the invoking user (${user}:${group}) with keep-id, not ${uid}:${gid}`);
    }
    return ['--userns=keep-id'];
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function objectAt(value, key) {
    const found = value[key];
    return isObject(found) ? found : {};
}
function stringAt(value, key) {
    const found = value[key];
    return typeof found === 'string' ? found : '';
}
function idMaps(value) {
    if (!Array.isArray(value))
        return [];
    return value.filter(isObject).map((m) => ({
        containerId: Number(m.container_id),
        hostId: Number(m.host_id),
        size: Number(m.size),
    }));
}
function versionAtLeast(version, major, minor) {
    const m = /^(\d+)\.(\d+)/.exec(version);
    if (!m)
        return false;
    const [a, b] = [Number(m[1]), Number(m[2])];
    return a > major || (a === major && b >= minor);
}
function lastLine(text) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    return lines[lines.length - 1] ?? '(no output)';
}

// EXTERNAL MODULE: ./src/engine/proc.ts + 2 modules
var proc = __nccwpck_require__(729);
;// CONCATENATED MODULE: ./src/engine/engine.ts
// The container engine CLI (Docker, or Podman which speaks the same CLI) behind one interface
// (EngineCommands, engine-commands.ts). Argument arrays only; values that could be secrets travel in the
// child's environment (`-e NAME`), never on its command line.
// ADR 0006 (docs/adr/0006-env-never-touches-the-engine-cli.md).








/** The engine CLI's own variables: taken from the runner, never overridden for a container's sake. */
const ENGINE_ENV = [
    'PATH',
    'HOME',
    'DOCKER_HOST',
    'DOCKER_CONFIG',
    'DOCKER_CONTEXT',
    'DOCKER_CERT_PATH',
    'DOCKER_TLS_VERIFY',
    'CONTAINERS_CONF',
    'CONTAINER_HOST',
    'XDG_RUNTIME_DIR',
    'TMPDIR',
];
class ContainerEngine {
    name;
    detected;
    view;
    constructor(name = 'docker') {
        this.name = name;
    }
    /**
     * Rootless or not, from the engine itself (`podman info`), asked once. Docker is not asked: it has no
     * user-namespace option a container needs here, and start-up latency counts.
     */
    mode() {
        if (this.name !== 'podman')
            return undefined;
        this.detected ??= detectEngineMode(this.name, (args) => this.exec(args));
        return this.detected;
    }
    /**
     * Where the engine finds the action's paths (host-paths.ts), found once: no engine call on a plain host;
     * in a container of this engine, its mounts.
     */
    hostView() {
        this.view ??= (0,host_paths/* discoverHostView */.x_)((args, options) => this.stream(args, options));
        return this.view;
    }
    /** The engine's path for each bind source, for a caller of `containerRunArgs` itself. */
    async bindSource() {
        return (0,host_paths/* bindSource */.Vx)(await this.hostView());
    }
    /** The `run` arguments of a container: the one builder's, with this engine's user-namespace mapping. */
    async runArgs(spec) {
        const [mode, view] = await Promise.all([this.mode(), this.hostView()]);
        const id = (0,container_args/* currentIdentity */._c)();
        return (0,container_args/* containerRunArgs */.s$)(this.name, { ...spec, userns: mode ? userNamespaceArgs(mode, id.uid, id.gid) : [] }, (0,host_paths/* bindSource */.Vx)(view));
    }
    /**
     * The CLI's environment: the runner's engine variables (HOME, DOCKER_CONFIG, XDG_RUNTIME_DIR...), plus
     * values the CLI passes on to a container by name (`-e NAME`), which may never replace one of its own.
     */
    env(inherit = {}) {
        for (const name of Object.keys(inherit))
            if (ENGINE_ENV.includes(name))
                throw new Error(`${name} is the ${this.name} CLI's own variable.`);
        return { ...inherit, ...(0,proc/* pickEnv */.Bh)(ENGINE_ENV) };
    }
    /**
     * Runs the engine CLI under the time limit of its kind of call (`engineWork`), or a shorter one; never
     * throws for a non-zero exit, but throws a ProcTimeLimitError when the limit runs out (the CLI killed).
     */
    async exec(args, options = {}) {
        const work = (0,time_limits/* engineWork */.Au)(args);
        const limit = {
            ms: Math.min(options.limitMs ?? Infinity, (0,time_limits/* timeLimitMs */.PI)(work)),
            purpose: options.purpose ?? `the container engine's ${work.slice('engine-'.length)}`,
        };
        try {
            return await (0,proc/* runProcess */.R3)(this.name, args, { env: this.env(options.inherit), limit });
        }
        catch (error) {
            throw this.notInstalled(error);
        }
    }
    /** Runs the engine CLI with its output streamed (bounded memory: see runStreaming). */
    async stream(args, options = {}) {
        try {
            return await (0,proc/* runStreaming */.SL)(this.name, args, { ...options, env: this.env(options.inherit) });
        }
        catch (error) {
            throw this.notInstalled(error);
        }
    }
    /** Runs a helper container under its time limit (helper-run.ts). */
    runHelper(spec, run, options = {}) {
        return runHelperContainer(this, spec, run, options);
    }
    /** Kills a container (SIGKILL, not the engine's polite stop) and removes it. */
    async stopContainer(name) {
        await this.exec(['kill', '--', name]).catch(() => undefined);
        await this.exec(['rm', '--force', '--volumes', '--', name]).catch(() => undefined);
    }
    notInstalled(error) {
        if (!(error instanceof proc/* ProcError */.Nm))
            return error;
        return new engine_error/* EngineError */.NJ(`${this.name} is not installed or not on PATH: isolation needs a container engine.`);
    }
    async run(args) {
        const result = await this.exec(args);
        if (result.exitCode !== 0)
            throw this.failure(args, result);
        return result.stdout;
    }
    failure(args, result) {
        return (0,engine_error/* engineFailure */.FR)(this.name, args, result);
    }
    /** The engine's answer on `image` (ensureImage's first half). */
    inspectImage(image) {
        return this.exec(['image', 'inspect', '--format', '{{.Id}}', '--', image]);
    }
    /**
     * Makes sure `image` is present, pulling it when missing. Also the engine reachability check: one call on
     * the fast path, so that start-up stays quick.
     */
    async ensureImage(image) {
        const inspect = await this.inspectImage(image);
        if (inspect.exitCode === 0)
            return;
        const failure = this.failure(['image', 'inspect'], inspect);
        if (failure.message.includes('unreachable'))
            throw failure;
        const pull = await this.exec(['pull', '--quiet', '--', image]);
        if (pull.exitCode !== 0) {
            throw new engine_error/* EngineError */.NJ(`Image "${image}" is not present and could not be pulled: ${(0,engine_error/* firstLine */.TM)((pull.stderr || pull.stdout).trim())}`);
        }
    }
    async volumeExists(name) {
        const result = await this.exec(['volume', 'inspect', '--format', '{{.Name}}', '--', name]);
        if (result.exitCode === 0)
            return true;
        const failure = this.failure(['volume', 'inspect'], result);
        if (failure.message.includes('unreachable'))
            throw failure;
        return false;
    }
    async createVolume(name, labels) {
        const args = ['volume', 'create'];
        for (const [key, value] of Object.entries(labels))
            args.push('--label', `${key}=${value}`);
        args.push('--', name);
        await this.run(args);
    }
    /** Removes a volume; false when it is absent. Throws when it is in use or the engine fails. */
    async removeVolume(name) {
        if (!(await this.volumeExists(name)))
            return false;
        await this.run(['volume', 'rm', '--', name]);
        return true;
    }
    /** `--init` (a tiny init as PID 1: signals, zombies) where the engine always ships one. */
    get initArgs() {
        return this.name === 'docker' ? ['--init'] : [];
    }
    async containerState(name) {
        const result = await this.exec([
            'container',
            'inspect',
            '--format',
            '{{json .State.ExitCode}} {{json .State.OOMKilled}} {{json .State.Running}} {{json .State.Status}} {{json .State.StartedAt}} {{json .State.Error}}',
            '--',
            name,
        ]);
        if (result.exitCode !== 0)
            return undefined;
        const [code, oom, running, status, startedAt, error] = JSON.parse(`[${result.stdout.trim().split(' ').join(',')}]`);
        // A container that never started has StartedAt at the zero time (Docker) or empty (Podman).
        const started = !!startedAt && !startedAt.startsWith('0001-01-01') && status !== 'created';
        return { exitCode: code, oomKilled: oom, running, status, started, error: error ?? '' };
    }
    /** Whether a container exists: undefined when the engine cannot tell (unreachable). */
    async containerExists(name) {
        const result = await this.exec(['container', 'inspect', '--format', '{{.Id}}', '--', name]);
        if (result.exitCode === 0)
            return true;
        return /no such (container|object)/i.test(result.stderr) ? false : undefined;
    }
    listContainers(label) {
        return (0,inventory/* listContainers */.t)(this, label);
    }
    /** The last lines of a container's output as the engine logged it (empty when its log driver keeps none). */
    async logTail(name, lines) {
        const result = await (0,proc/* runStreaming */.SL)(this.name, ['logs', '--tail', String(lines), '--', name], {
            env: this.env(),
            onLine: () => undefined,
            timeLimitMs: (0,time_limits/* timeLimitMs */.PI)('engine-query'),
        });
        return result.exitCode === 0 ? result.outputTail : [];
    }
    /** Removes a container if it exists (running or not). */
    async removeContainer(name) {
        const result = await this.exec(['rm', '--force', '--volumes', '--', name]);
        return result.exitCode === 0;
    }
    async killContainer(name) {
        await this.exec(['kill', '--', name]);
    }
    /** Removes every container (running or not) carrying all the given labels; returns their names. */
    async removeContainersLabelled(labels) {
        const filters = Object.entries(labels).flatMap(([k, v]) => ['--filter', `label=${k}=${v}`]);
        const names = (await this.run(['ps', '--all', ...filters, '--format', '{{.Names}}']))
            .split('\n')
            .filter(Boolean);
        for (const name of names)
            await this.removeContainer(name);
        return names;
    }
}
/** The engine as the layers above engine/ hold it, the interface; a spec holds a fake. */
const createEngine = (name) => new ContainerEngine(name);


/***/ }),

/***/ 3858:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Xo: () => (/* binding */ sharedLibraries),
/* harmony export */   cy: () => (/* binding */ LayerEntries),
/* harmony export */   mW: () => (/* binding */ hostImage),
/* harmony export */   tg: () => (/* binding */ HOST_IMAGE_PATH)
/* harmony export */ });
/* unused harmony export tarLayer */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_os__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(729);
/* harmony import */ var _time_limits_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(1814);
// Images made on the spot from the runner's own files: the reaper's helper image (helper-image.ts: `sh`,
// `git` and a few tools) and the network sidecar's image (the libraries the runner's Node loads). Neither
// ever rests on the `image` input, which may lie.
//
// The layer is made here, byte for byte the same from the same files (sorted, times and owners zeroed),
// so its SHA-256 names it: the image is tagged with it and made once per engine and host. An image found
// under that tag is used only when its one layer is exactly that archive and its configuration sets
// nothing but PATH and its label; anything else under the tag is replaced. The programs this runs on the
// host (`ldd`, the engine's `import`) run under their time limits and are killed when they run out.






/** The PATH every such image sets, and the only variable. */
const HOST_IMAGE_PATH = '/usr/bin:/bin';
const made = new WeakMap();
/**
 * The image's name in this engine, made first when missing (once per engine object and repository: a
 * process has one; a failure is not remembered, so the next caller tries again).
 */
function hostImage(engine, spec) {
    let images = made.get(engine);
    if (!images)
        made.set(engine, (images = new Map()));
    let image = images.get(spec.repository);
    if (!image) {
        image = makeHostImage(engine, spec);
        images.set(spec.repository, image);
        image.catch(() => images.delete(spec.repository));
    }
    return image;
}
async function makeHostImage(engine, spec) {
    const layer = tarLayer(await spec.entries());
    const digest = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(layer).digest('hex');
    const image = `${spec.repository}:${digest.slice(0, 32)}`;
    if (await isOurs(engine, image, digest))
        return image;
    const dir = node_fs__WEBPACK_IMPORTED_MODULE_1__.mkdtempSync(node_path__WEBPACK_IMPORTED_MODULE_3__.join(process.env.RUNNER_TEMP || node_os__WEBPACK_IMPORTED_MODULE_2__.tmpdir(), 'worktree-sandbox-image-'));
    try {
        const file = node_path__WEBPACK_IMPORTED_MODULE_3__.join(dir, 'layer.tar');
        node_fs__WEBPACK_IMPORTED_MODULE_1__.writeFileSync(file, layer, { mode: 0o600 });
        const imported = await engine.exec([
            'import',
            '--change',
            `ENV PATH=${HOST_IMAGE_PATH}`,
            '--change',
            `LABEL ${spec.label}=${digest}`,
            '--',
            file,
            image,
        ], { purpose: `importing ${spec.what}` });
        if (imported.exitCode !== 0)
            throw engine.failure(['import', image], imported);
    }
    finally {
        node_fs__WEBPACK_IMPORTED_MODULE_1__.rmSync(dir, { recursive: true, force: true });
    }
    if (!(await isOurs(engine, image, digest)))
        throw new Error(`${spec.what} ${image} does not hold the layer it was made from`);
    return image;
}
/** The image under `image` is the one made from this layer, configured with nothing but PATH. */
async function isOurs(engine, image, digest) {
    const inspect = await engine.exec([
        'image',
        'inspect',
        '--format',
        '{{json .RootFS.Layers}} {{json .Config.Env}} {{json .Config.Entrypoint}} {{json .Config.Cmd}} {{json .Config.User}}',
        '--',
        image,
    ]);
    if (inspect.exitCode !== 0)
        return false;
    const [layers, env, entrypoint, cmd, user] = inspect.stdout.trim().split(' ');
    return (layers === JSON.stringify([`sha256:${digest}`]) &&
        env === JSON.stringify([`PATH=${HOST_IMAGE_PATH}`]) &&
        entrypoint === 'null' &&
        (cmd === 'null' || cmd === '[]') &&
        (user === '""' || user === 'null'));
}
/** Builds a layer's entries: files at their paths, with the folders above them. */
class LayerEntries {
    entries = new Map();
    dir(p, mode = 0o755) {
        this.entries.set(p, { type: 'dir', path: p, mode });
    }
    /** The folders above `p` that are not there yet. */
    parents(p) {
        for (let dir = node_path__WEBPACK_IMPORTED_MODULE_3__.posix.dirname(p); dir !== '/'; dir = node_path__WEBPACK_IMPORTED_MODULE_3__.posix.dirname(dir))
            if (!this.entries.has(dir))
                this.dir(dir);
    }
    /** A copy of the host's file `source` (its content, through links) at `p`. */
    file(p, source) {
        this.parents(p);
        this.entries.set(p, { type: 'file', path: p, mode: node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync(source).mode & 0o755, source });
    }
    symlink(p, target) {
        this.parents(p);
        this.entries.set(p, { type: 'symlink', path: p, target });
    }
    has(p) {
        return this.entries.has(p);
    }
    /** Sorted by path, so that the same files make the same archive. */
    list() {
        return [...this.entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
}
/**
 * The shared libraries `ldd` says these programs load, the loader included (none for a static program),
 * in one ldd under its time limit.
 */
async function sharedLibraries(programs, what) {
    const result = await (0,_proc_js__WEBPACK_IMPORTED_MODULE_4__/* .runProcess */ .R3)('ldd', ['--', ...programs], {
        env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
        limit: { ms: (0,_time_limits_js__WEBPACK_IMPORTED_MODULE_5__/* .timeLimitMs */ .PI)('ldd'), purpose: `listing the libraries ${what} needs` },
    });
    const text = result.stdout + result.stderr;
    // With several files, ldd exits 1 when any is static ("not a dynamic executable"): that one has none.
    if (result.exitCode !== 0 && !/not a dynamic executable|statically linked/.test(text))
        throw new Error(`ldd failed: ${result.stderr.trim().split('\n')[0]}`);
    const missing = /^\s+(\S+) => not found/m.exec(result.stdout);
    if (missing)
        throw new Error(`ldd finds no ${missing[1]} for ${what}`);
    const libraries = [];
    for (const line of result.stdout.split('\n')) {
        const match = /^\s+(?:\S+\s+=>\s*)?(\/\S+)\s+\(0x/.exec(line);
        if (match)
            libraries.push(match[1]);
    }
    return [...new Set(libraries)];
}
// ---- the archive --------------------------------------------------------------------------------------
/** A POSIX (ustar) archive of the entries: the same bytes for the same files, whatever the clock. */
function tarLayer(entries) {
    const blocks = [];
    for (const entry of entries) {
        const name = entry.path.replace(/^\/+/, '') + (entry.type === 'dir' ? '/' : '');
        if (entry.type === 'file') {
            const data = node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync(entry.source);
            blocks.push(header(name, '0', entry.mode, data.length, ''), data, padding(data.length));
        }
        else if (entry.type === 'dir')
            blocks.push(header(name, '5', entry.mode, 0, ''));
        else
            blocks.push(header(name, '2', 0o777, 0, entry.target));
    }
    blocks.push(Buffer.alloc(1024));
    return Buffer.concat(blocks);
}
function padding(size) {
    return Buffer.alloc((512 - (size % 512)) % 512);
}
function header(name, type, mode, size, link) {
    const block = Buffer.alloc(512);
    let prefix = '';
    let base = name;
    if (Buffer.byteLength(name) > 100) {
        const cut = name.lastIndexOf('/', name.length - 2);
        prefix = name.slice(0, cut);
        base = name.slice(cut + 1);
        if (Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155)
            throw new Error(`${name} is too long a path for an image layer`);
    }
    if (Buffer.byteLength(link) > 100)
        throw new Error(`${link} is too long a link for an image layer`);
    const octal = (value, width) => value.toString(8).padStart(width - 1, '0') + '\0';
    block.write(base, 0, 100, 'utf8');
    block.write(octal(mode, 8), 100, 8, 'ascii');
    block.write(octal(0, 8), 108, 8, 'ascii'); // uid
    block.write(octal(0, 8), 116, 8, 'ascii'); // gid
    block.write(octal(size, 12), 124, 12, 'ascii');
    block.write(octal(0, 12), 136, 12, 'ascii'); // mtime
    block.write(' '.repeat(8), 148, 8, 'ascii'); // checksum, counted as spaces
    block.write(type, 156, 1, 'ascii');
    block.write(link, 157, 100, 'utf8');
    block.write('ustar\0', 257, 6, 'ascii');
    block.write('00', 263, 2, 'ascii');
    block.write(prefix, 345, 155, 'utf8');
    let sum = 0;
    for (const byte of block)
        sum += byte;
    block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
    return block;
}


/***/ }),

/***/ 6387:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   NH: () => (/* binding */ runsInContainer),
/* harmony export */   Qe: () => (/* binding */ requireVisible),
/* harmony export */   Vx: () => (/* binding */ bindSource),
/* harmony export */   aE: () => (/* binding */ enginePath),
/* harmony export */   jX: () => (/* binding */ SHARED_ROOT_FIX),
/* harmony export */   mL: () => (/* binding */ HostPathError),
/* harmony export */   x_: () => (/* binding */ discoverHostView)
/* harmony export */ });
/* unused harmony exports INSPECT_TIMEOUT_MS, containerIdCandidates, rootIsContainerLayer, parseInspectMounts, unseenMessage */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// The engine's view of the paths the action mounts. On a plain host the engine and the action see one
// filesystem. When the action itself runs in a container of the same engine (a job container), the
// engine knows nothing of the paths inside it: every bind source must be the path on the engine's side,
// found through the container's own mounts, as the runner's container support does. A path under none of
// them exists only in the container's own layer, and no bind can reach it.
// Which view applies is read from this process's own mount table (no engine call on a plain host); a
// container of the engine is then looked up by id with `inspect`. What is read here is not trusted to be
// complete: the probe (engine-probe.ts) proves that the engine sees a folder where the action sees it.


class HostPathError extends Error {
    constructor(message) {
        super(message);
        this.name = 'HostPathError';
    }
}
/** How long the engine may take to say what it knows of the action's own container. */
const INSPECT_TIMEOUT_MS = 15_000;
/** The most of `inspect`'s answer read (one line of JSON: a few hundred bytes a mount). */
const INSPECT_MAX_BYTES = 1024 * 1024;
const CONTAINER_ID = /^[0-9a-f]{64}$/;
/** File systems a container's own root is made of: nothing outside the container sees into them. */
const LAYER_FILESYSTEMS = new Set(['overlay', 'fuse.fuse-overlayfs', 'aufs']);
/**
 * The ids this process's container may have, best first, from its mount table and cgroup. The engine
 * mounts `/etc/hostname` (and hosts, resolv.conf) from a file in a folder named for the container
 * (Docker: `.../containers/<id>/hostname`; Podman: `.../overlay-containers/<id>/userdata/hostname`);
 * a cgroup path may name it too (cgroup v1, or v2 without a cgroup namespace). Pure.
 */
function containerIdCandidates(mountinfo, cgroup) {
    const ids = [];
    const add = (id) => {
        if (id && CONTAINER_ID.test(id) && !ids.includes(id))
            ids.push(id);
    };
    for (const line of mountinfo.split('\n')) {
        const fields = line.split(' ');
        const [root, mountPoint] = [fields[3] ?? '', fields[4] ?? ''];
        if (!/^\/etc\/(hostname|hosts|resolv\.conf)$/.test(mountPoint))
            continue;
        add(/[/-]containers\/([0-9a-f]{64})\/(?:userdata\/)?[^/]+$/.exec(root)?.[1]);
    }
    for (const line of cgroup.split('\n'))
        add(/(?:docker[-/]|libpod-|crio-|containerd-)?([0-9a-f]{64})(?:\.scope)?$/.exec(line.trim())?.[1]);
    return ids;
}
/** Whether this process's root file system is a container's own layer (overlay...). Pure. */
function rootIsContainerLayer(mountinfo) {
    for (const line of mountinfo.split('\n')) {
        const fields = line.split(' ');
        if (fields[4] !== '/')
            continue;
        const dash = fields.indexOf('-');
        const fsType = dash >= 0 ? fields[dash + 1] : '';
        if (LAYER_FILESYSTEMS.has(fsType))
            return true;
    }
    return false;
}
let ownFacts;
/** This process's mount table and cgroup (read once: two small files, well under a millisecond). */
function readOwnFacts() {
    const read = (file) => {
        try {
            return node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync(file, 'utf8');
        }
        catch {
            return '';
        }
    };
    ownFacts ??= { mountinfo: read('/proc/self/mountinfo'), cgroup: read('/proc/self/cgroup') };
    return ownFacts;
}
/**
 * Whether the action runs in a container of any engine (a job container, a runner pod, a runner in a
 * container): then its home is the container's own, and no other container sees it. A plain host (even
 * one whose image left `/.dockerenv` behind) has its own root file system.
 */
function runsInContainer(facts = readOwnFacts()) {
    return (rootIsContainerLayer(facts.mountinfo) || containerIdCandidates(facts.mountinfo, facts.cgroup).length > 0);
}
/** The mounts `inspect` printed (`{{json .Mounts}}`): bind and volume mounts, each with its engine path. Pure. */
function parseInspectMounts(json) {
    let parsed;
    try {
        parsed = JSON.parse(json);
    }
    catch {
        throw new HostPathError(`The engine's description of the action's container is not JSON: ${json.slice(0, 200)}`);
    }
    if (!Array.isArray(parsed))
        return [];
    const mounts = [];
    for (const entry of parsed) {
        const { Type: type, Source: source, Destination: target } = entry ?? {};
        if (typeof source !== 'string' || typeof target !== 'string')
            continue;
        if (type !== 'bind' && type !== 'volume')
            continue;
        if (!node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute(source) || !node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute(target))
            continue;
        mounts.push({ source: node_path__WEBPACK_IMPORTED_MODULE_1__.normalize(source), target: node_path__WEBPACK_IMPORTED_MODULE_1__.normalize(target) });
    }
    // The deepest mount wins: a mount inside another hides what lies below it.
    return mounts.sort((a, b) => b.target.length - a.target.length);
}
/**
 * Where the engine finds `file`: the same path, or the source of the mount it lies under (the deepest),
 * with the rest of the path appended; undefined when it lies under none. Pure.
 */
function enginePath(view, file) {
    if (view.kind === 'same')
        return file;
    const normal = node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(file);
    for (const mount of view.mounts) {
        if (normal === mount.target)
            return mount.source;
        const prefix = mount.target === '/' ? '/' : `${mount.target}/`;
        if (normal.startsWith(prefix))
            return node_path__WEBPACK_IMPORTED_MODULE_1__.join(mount.source, normal.slice(prefix.length));
    }
    return undefined;
}
const SHARED_ROOT_FIX = "Use isolation: container, or a worktree-root inside a folder the engine shares with the action at the same path (with Actions Runner Controller in Docker-in-Docker mode: under the runner's work folder, e.g. /home/runner/_work)";
/** Why a path cannot be mounted, and what to change. Pure. */
function unseenMessage(view, unseen) {
    const shared = view.mounts.map((m) => m.target).join(', ') || 'none';
    const fix = unseen.fix ??
        'Use isolation: container, or a worktree-root inside a folder the engine shares with this container';
    return (`The ${unseen.what} ${unseen.path} is inside the action's own container (${view.id.slice(0, 12)}), under none of its mounts, so the container engine cannot see it and no container can mount it. ` +
        `Nothing was created. ${fix} (this container's mounts: ${shared}).`);
}
/** Throws (naming the first path and the fix) unless the engine sees every path. Pure. */
function requireVisible(view, paths) {
    if (view.kind === 'same')
        return;
    const unseen = paths.find((p) => enginePath(view, p.path) === undefined);
    if (unseen)
        throw new HostPathError(unseenMessage(view, unseen));
}
/** The translation the one builder of `run` arguments applies to every bind source. */
function bindSource(view) {
    if (view.kind === 'same')
        return (file) => file;
    return (file) => {
        const found = enginePath(view, file);
        if (found === undefined)
            throw new HostPathError(unseenMessage(view, { path: file, what: 'folder' }));
        return found;
    };
}
/** What the engine says of container `id`: its full id and its mounts as JSON, or undefined when it does not know it. */
async function inspectOwn(exec, id, timeLimitMs) {
    let out = '';
    const result = await exec(['container', 'inspect', '--format', '{{.Id}} {{json .Mounts}}', '--', id], {
        timeLimitMs,
        maxLineBytes: INSPECT_MAX_BYTES,
        onLine: (line, stream) => {
            if (stream === 'stdout' && out.length < INSPECT_MAX_BYTES)
                out += `${line}\n`;
        },
    });
    if (result.timedOut)
        throw new HostPathError(`The container engine did not say within ${timeLimitMs / 1000} s what it knows of the action's own container (${id.slice(0, 12)}); its CLI was stopped, and nothing was created.`);
    return result.exitCode === 0 ? out.trim() : undefined;
}
/**
 * The engine's view of this process's paths. A plain host: no engine call. In a container: each candidate
 * id is asked of the engine; one it knows is the action's own container, and its mounts say where each
 * path is on the engine's side. A container the engine does not know (a runner pod beside a
 * Docker-in-Docker engine, a container of another engine) shares folders at the same path, if at all:
 * the probe tells.
 */
async function discoverHostView(exec, facts = readOwnFacts(), timeLimitMs = INSPECT_TIMEOUT_MS) {
    const containerized = runsInContainer(facts);
    if (!containerized)
        return { kind: 'same', containerized };
    for (const id of containerIdCandidates(facts.mountinfo, facts.cgroup)) {
        const out = await inspectOwn(exec, id, timeLimitMs);
        if (out === undefined)
            continue;
        const space = out.indexOf(' ');
        if (space < 0 || out.slice(0, space) !== id)
            continue;
        return { kind: 'container', id, mounts: parseInspectMounts(out.slice(space + 1)) };
    }
    return { kind: 'same', containerized };
}


/***/ }),

/***/ 3190:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   t: () => (/* binding */ listContainers),
/* harmony export */   y: () => (/* binding */ listVolumes)
/* harmony export */ });
/** Every volume carrying `label` (key or key=value), with its labels: one engine call whatever the count. */
async function listVolumes(engine, label, labelKeys) {
    // Docker's template has .Label "key" (its .Labels is one "k=v,k=v" string, ambiguous with commas in
    // values); Podman's has .Labels as a map. Either way: one call, one JSON array per volume.
    const fields = engine.name === 'podman'
        ? '{{json .Labels}}'
        : labelKeys.map((key) => `{{json (.Label ${JSON.stringify(key)})}}`).join(',');
    const out = await engine.run([
        'volume',
        'ls',
        '--filter',
        `label=${label}`,
        '--format',
        `[{{json .Name}},${fields}]`,
    ]);
    return out
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => {
        const [name, ...values] = JSON.parse(line);
        const all = typeof values[0] === 'object' && values[0] !== null ? values[0] : undefined;
        const labels = {};
        labelKeys.forEach((key, i) => {
            const value = all ? all[key] : values[i];
            if (value)
                labels[key] = value;
        });
        return { name, labels };
    });
}
/**
 * Every container (running or not; with `label`, key or key=value, only those carrying it), as
 * EngineCommands.listContainers shows them: two engine calls whatever their number (`ps` for the ids, one
 * `container inspect` for all). A container removed between the two is not listed; any other failure,
 * or an answer that cannot be read, throws (the reaper's in-use check must not miss one).
 */
async function listContainers(engine, label) {
    const ps = ['ps', '--all', '--quiet', '--no-trunc', ...(label ? ['--filter', `label=${label}`] : [])];
    const ids = (await engine.run(ps)).split('\n').filter(Boolean);
    if (ids.length === 0)
        return [];
    // One JSON array a line, whatever a name or a mount's path holds.
    const format = '[{{json .Name}},{{json .State.Status}},{{json .State.Running}},{{json .HostConfig.NetworkMode}},{{json .Mounts}}]';
    const args = ['container', 'inspect', '--format', format, '--', ...ids];
    const result = await engine.exec(args);
    // A failure is any line of stderr but "no such container" (one removed between the two calls).
    const failed = /^(?!.*no such (object|container)).*\S/im.test(result.stderr);
    if (result.exitCode !== 0 && failed)
        throw engine.failure(args, result);
    return result.stdout
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => {
        const [name, status, running, networkMode, mounts] = JSON.parse(line);
        const of = (type, key) => (mounts ?? []).filter((m) => m.Type === type && m[key]).map((m) => m[key]);
        return {
            name: String(name).replace(/^\//, ''),
            status: String(status),
            running: running === true,
            networkMode: String(networkMode),
            volumes: of('volume', 'Name'),
            binds: of('bind', 'Source'),
        };
    });
}


/***/ }),

/***/ 9667:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Pf: () => (/* binding */ label),
/* harmony export */   bS: () => (/* binding */ MANAGED_LABEL),
/* harmony export */   bW: () => (/* binding */ VOLUME_LABEL_KEYS),
/* harmony export */   kV: () => (/* binding */ volumeLabels),
/* harmony export */   nX: () => (/* binding */ commandLabels),
/* harmony export */   vJ: () => (/* binding */ HELPER_LABELS),
/* harmony export */   xN: () => (/* binding */ sandboxHelperLabels)
/* harmony export */ });
/* unused harmony export LABEL_PREFIX */
// The label schema: how everything this project creates in a container engine is named and found again.
const LABEL_PREFIX = 'worktree-sandbox';
const MANAGED_LABEL = `${LABEL_PREFIX}.managed`;
const label = (key) => `${LABEL_PREFIX}.${key}`;
/** The labels every sandbox volume carries (the reaper reads them back with `volume ls`). */
const VOLUME_LABEL_KEYS = ['project', 'sandbox', 'kind', 'branch', 'parent', 'created'].map(label);
function volumeLabels(facts, now = new Date()) {
    return {
        [MANAGED_LABEL]: 'true',
        [label('project')]: facts.project,
        [label('sandbox')]: facts.name,
        [label('kind')]: facts.kind,
        [label('branch')]: facts.branch,
        [label('parent')]: facts.parentPath,
        [label('created')]: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
}
/** Labels of a command container: how a later run finds the container of a run that was killed. */
function commandLabels(sandbox) {
    return {
        [label('role')]: 'command',
        [label('project')]: sandbox.project,
        [label('sandbox')]: sandbox.name,
    };
}
const HELPER_LABELS = { [label('role')]: 'helper' };
/**
 * Labels of a helper container working on one sandbox: a step that was killed while one ran finds it
 * again (the post step removes it), and a test can tell that none was left.
 */
function sandboxHelperLabels(sandbox) {
    return { ...HELPER_LABELS, [label('project')]: sandbox.project, [label('sandbox')]: sandbox.name };
}


/***/ }),

/***/ 729:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Nm: () => (/* binding */ ProcError),
  DY: () => (/* binding */ notStarted),
  Bh: () => (/* binding */ pickEnv),
  R3: () => (/* binding */ runProcess),
  SL: () => (/* binding */ runStreaming)
});

// UNUSED EXPORTS: ProcTimeLimitError, programName

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __nccwpck_require__(1421);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
;// CONCATENATED MODULE: ./src/engine/chunk-tail.ts
// A bounded tail of a stream's output: what error messages and reports quote of a program that may print
// without end.
/** The last chunks of a stream, at least `bytes` of them when there were that many. */
class ChunkTail {
    bytes;
    chunks = [];
    size = 0;
    constructor(bytes) {
        this.bytes = bytes;
    }
    push(chunk) {
        this.chunks.push(chunk);
        this.size += chunk.length;
        while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.bytes)
            this.size -= this.chunks.shift().length;
    }
    text() {
        const all = Buffer.concat(this.chunks);
        return all.subarray(Math.max(0, all.length - this.bytes)).toString('utf8');
    }
}

;// CONCATENATED MODULE: ./src/engine/process-group.ts
// Process groups that proc.ts starts: every program it runs under a time limit leads a group of its own,
// so that a kill reaches what it started too (git's remote helper, ssh, tar's gzip).

/** Process groups started here and still running: killed when this process exits, so none outlives it. */
const liveGroups = new Set();
let exitHook = false;
function trackGroup(pid) {
    if (!exitHook) {
        exitHook = true;
        process.once('exit', () => {
            for (const group of liveGroups)
                killGroup(group);
        });
    }
    liveGroups.add(pid);
}
function untrackGroup(pid) {
    liveGroups.delete(pid);
}
function killGroup(pid) {
    try {
        process.kill(-pid, 'SIGKILL');
    }
    catch {
        // already gone
    }
}
/**
 * How long a killed group may take to be gone. A kill is delivered at once, but a program ends only when
 * it is next scheduled (later still in an uninterruptible wait), and its pipes close before it has ended:
 * the caller's answer should not come while the programs it says were killed still run.
 */
const GROUP_END_MS = 2_000;
const GROUP_POLL_MS = 10;
/**
 * Resolves once no process of the group runs any more, or after the bound. One that has ended but is not
 * reaped yet does not count: its new parent (PID 1, which may reap late or never) decides when it goes.
 */
async function waitForGroupEnd(pid, boundMs = GROUP_END_MS) {
    const until = Date.now() + boundMs;
    while (groupRuns(pid) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
}
function groupRuns(pgid) {
    try {
        process.kill(-pgid, 0);
    }
    catch (error) {
        // EPERM: a member runs as another user now (not ours to kill): it is there.
        if (error.code !== 'EPERM')
            return false;
    }
    let entries;
    try {
        entries = external_node_fs_.readdirSync('/proc');
    }
    catch {
        return true; // no /proc to tell a running member from an ended one: the group is there
    }
    return entries.some((entry) => /^\d+$/.test(entry) && runsInGroup(entry, pgid));
}
/** `/proc/<pid>/stat` is `pid (comm) state ppid pgrp ...`; comm may hold anything, so read past its last `)`. */
function runsInGroup(pid, pgid) {
    let stat;
    try {
        stat = external_node_fs_.readFileSync(`/proc/${pid}/stat`, 'utf8');
    }
    catch {
        return false; // gone meanwhile
    }
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(group) === pgid && state !== 'Z' && state !== 'X';
}

// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
// EXTERNAL MODULE: ./src/engine/tool-path.ts
var tool_path = __nccwpck_require__(2428);
;// CONCATENATED MODULE: ./src/engine/proc.ts
// Where child processes start (with piped-process.ts, for a long-lived one): run to their end, with their
// output buffered or streamed. Argument arrays only: nothing here goes through a shell.
// ADR 0007 (docs/adr/0007-streamed-output-bounded-memory.md).







/** The program could not be started (not installed, its folder gone). */
class ProcError extends Error {
    result;
    constructor(message, result) {
        super(message);
        this.result = result;
        this.name = 'ProcError';
    }
}
/** A program ran out of its time limit; it was killed with every program it started. */
class ProcTimeLimitError extends Error {
    program;
    purpose;
    limitMs;
    constructor(
    /** The program and its sub-command, `git fetch`. */
    program, purpose, limitMs) {
        super(`${program} (${purpose}) ran out of its time limit (${(0,time_limits/* formatLimit */.tW)(limitMs)}) and was killed, with every program it started.`);
        this.program = program;
        this.purpose = purpose;
        this.limitMs = limitMs;
        this.name = 'ProcTimeLimitError';
    }
}
/** `git fetch` for git's `fetch …`, `ldd` for `ldd -- …`: the program as a person names it. */
function programName(tool, args) {
    const sub = args[0];
    const base = external_node_path_.basename(tool);
    return sub && /^[a-z][a-z0-9-]{0,30}$/.test(sub) ? `${base} ${sub}` : base;
}
/**
 * How long a program may keep its output pipes open after it exited (a program it left behind holds
 * them): then its output so far is taken as all of it.
 */
const PIPES_GRACE_MS = 10_000;
/** The error for a program that could not be started. */
function notStarted(tool, error) {
    return new ProcError(`${tool} could not be started: ${error.message}`, {
        exitCode: -1,
        stdout: '',
        stderr: String(error),
    });
}
/**
 * Runs a program to its end and returns its output. It leads a process group of its own, and when
 * `limit.ms` runs out the whole group is killed (a remote helper or ssh that git started included) and a
 * ProcTimeLimitError names the program, what it was for and the limit.
 */
async function runProcess(tool, args, options) {
    let child;
    try {
        child = (0,external_node_child_process_.spawn)(await (0,tool_path/* toolPath */.O)(tool), [...args], {
            cwd: options.cwd,
            env: options.env,
            stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
            detached: true,
        });
    }
    catch (error) {
        throw notStarted(tool, error);
    }
    const pid = child.pid;
    if (pid)
        trackGroup(pid);
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    if (options.input) {
        child.stdin.on('error', () => undefined); // it exited without reading all: its exit code says why
        child.stdin.end(options.input);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
        timedOut = true;
        if (pid)
            killGroup(pid);
    }, options.limit.ms);
    let grace;
    try {
        const exitCode = await new Promise((resolve, reject) => {
            child.on('error', (error) => reject(notStarted(tool, error)));
            child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
            child.on('exit', (code, signal) => {
                grace = setTimeout(() => {
                    child.stdout.destroy();
                    child.stderr.destroy();
                    resolve(code ?? (signal ? 128 : 1));
                }, PIPES_GRACE_MS);
            });
        });
        if (timedOut) {
            if (pid)
                await waitForGroupEnd(pid);
            throw new ProcTimeLimitError(programName(tool, args), options.limit.purpose, options.limit.ms);
        }
        return {
            exitCode,
            stdout: Buffer.concat(stdout).toString('utf8'),
            stderr: Buffer.concat(stderr).toString('utf8'),
        };
    }
    finally {
        clearTimeout(timer);
        clearTimeout(grace);
        if (pid)
            untrackGroup(pid);
    }
}
/** Environment variables a CLI tool legitimately needs from the parent process; everything else is dropped. */
function pickEnv(names, source = process.env) {
    const env = {};
    for (const name of names) {
        const value = source[name];
        if (value !== undefined)
            env[name] = value;
    }
    return env;
}
/** How much of the end of a process's output is kept for messages and reports. */
const TAIL_BYTES = 64 * 1024;
/**
 * Runs a process whose output may be huge or hostile: nothing is accumulated but a bounded stderr tail;
 * lines are handed on as they come (cut at `maxLineBytes`), or stdout is written to a file up to a limit,
 * past which the process is killed. Memory stays bounded whatever the process prints.
 */
async function runStreaming(tool, args, options) {
    const maxLine = options.maxLineBytes ?? 64 * 1024;
    const tailLines = options.stderrTailLines ?? 40;
    let file;
    if (options.stdoutFile)
        file = external_node_fs_.openSync(options.stdoutFile.path, 'wx', 0o600);
    let child;
    const group = options.processGroup || options.timeLimitMs !== undefined;
    try {
        child = (0,external_node_child_process_.spawn)(await (0,tool_path/* toolPath */.O)(tool), [...args], {
            cwd: options.cwd,
            env: options.env,
            stdio: ['ignore', options.outputFd ?? 'pipe', 'pipe'],
            detached: group,
        });
    }
    catch (error) {
        if (file !== undefined)
            external_node_fs_.closeSync(file);
        throw notStarted(tool, error);
    }
    let stdoutBytes = 0;
    let overLimit = false;
    let timedOut = false;
    let groupKilled = false;
    const kill = () => {
        if (group && child.pid) {
            groupKilled = true;
            killGroup(child.pid);
        }
        else
            child.kill('SIGKILL');
    };
    const onAbort = () => kill();
    if (options.signal?.aborted)
        kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = options.timeLimitMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            kill();
        }, options.timeLimitMs);
    // Tails are the last chunks as they came (kept by reference, never copied or decoded per chunk): lines are
    // cut out of them once, at the end.
    const stderrTailChunks = new ChunkTail(TAIL_BYTES);
    const outputTailChunks = new ChunkTail(TAIL_BYTES);
    const splitter = (stream) => {
        let pending = '';
        return {
            push(chunk) {
                outputTailChunks.push(chunk);
                if (stream === 'stderr')
                    stderrTailChunks.push(chunk);
                if (stream === 'stderr' && options.onStderrChunk)
                    return options.onStderrChunk(chunk);
                if (!options.onLine)
                    return;
                const text = pending + chunk.toString('utf8');
                let start = 0;
                let nl;
                while ((nl = text.indexOf('\n', start)) >= 0) {
                    const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
                    options.onLine(text.slice(start, end), stream);
                    start = nl + 1;
                }
                if (text.length - start > maxLine) {
                    options.onLine(`${text.slice(start, start + maxLine)} [line cut at ${maxLine} characters]`, stream);
                    pending = '';
                }
                else
                    pending = text.slice(start);
            },
            end() {
                if (pending)
                    options.onLine?.(pending, stream);
                pending = '';
            },
        };
    };
    const err = splitter('stderr');
    const out = splitter('stdout');
    const throttle = () => {
        const wait = options.backpressure?.();
        if (!wait)
            return;
        child.stdout?.pause();
        child.stderr.pause();
        void wait.then(() => {
            child.stdout?.resume();
            child.stderr.resume();
        });
    };
    child.stderr?.on('data', (chunk) => {
        err.push(chunk);
        throttle();
    });
    child.stdout?.on('data', (chunk) => {
        if (file === undefined) {
            out.push(chunk);
            return throttle();
        }
        if (overLimit)
            return;
        stdoutBytes += chunk.length;
        if (stdoutBytes > options.stdoutFile.maxBytes) {
            overLimit = true;
            kill();
            return;
        }
        external_node_fs_.writeSync(file, chunk);
    });
    const exitCode = await new Promise((resolve, reject) => {
        child.on('error', (error) => reject(notStarted(tool, error)));
        child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    }).finally(() => {
        if (timer)
            clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (file !== undefined)
            external_node_fs_.closeSync(file);
    });
    // Its pipes close as the killed programs end, a moment before they are gone: answer once they are.
    if (groupKilled && child.pid)
        await waitForGroupEnd(child.pid);
    err.end();
    out.end();
    const lastLines = (tail) => tail.text().split(/\r?\n/).filter(Boolean).slice(-tailLines);
    return {
        exitCode,
        stderrTail: lastLines(stderrTailChunks),
        outputTail: lastLines(outputTailChunks),
        overLimit: overLimit || undefined,
        timedOut: timedOut || undefined,
        stdoutBytes,
    };
}


/***/ }),

/***/ 8557:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E: () => (/* binding */ startFailureHint),
/* harmony export */   u: () => (/* binding */ explainStartFailure)
/* harmony export */ });
const NETWORK_NONE = 'Set `network: none` (CLI: `--network none`) if the command needs no network.';
/**
 * A message with a hint for the usual reasons a (rootless) container does not start, from the engine's
 * stderr; undefined when the text is none of them. Pure.
 */
function explainStartFailure(stderr) {
    // Podman's log lines escape the quotes inside msg="..." with a backslash: the patterns take both forms.
    // Before the OCI patterns: runc reports an unusable runtime folder as "OCI permission denied" (exit 126).
    let m = /XDG_RUNTIME_DIR directory \\?"([^"\\]*)\\?" is not owned by the current user/.exec(stderr);
    if (m || /path in \$XDG_RUNTIME_DIR must be writable/.test(stderr)) {
        return {
            kind: 'runtime-dir',
            message: m
                ? `Rootless Podman's runtime folder ${m[1]} (XDG_RUNTIME_DIR) is not owned by the user.`
                : `Rootless Podman's runtime folder (XDG_RUNTIME_DIR) is missing or not writable by the user.`,
            hint: 'Point XDG_RUNTIME_DIR at a folder the user owns with mode 700 (normally /run/user/<uid>, made at login by systemd-logind).',
        };
    }
    m = /\/dev\/net\/tun\\?"?\): ([A-Za-z ]+)/.exec(stderr);
    if (m) {
        return {
            kind: 'no-tun',
            message: `Rootless networking failed: slirp4netns cannot open /dev/net/tun (${m[1].trim()}).`,
            hint: `${NETWORK_NONE} Otherwise the host must give the user a readable and writable /dev/net/tun.`,
        };
    }
    m =
        /could not find (slirp4netns|pasta)/.exec(stderr) ??
            /unable to find network with name or ID (slirp4netns|pasta)/.exec(stderr);
    if (m) {
        return {
            kind: 'network-helper-missing',
            message: `Rootless networking needs ${m[1]}, which ${m[0].startsWith('could') ? 'is not installed' : 'this Podman does not know'}.`,
            hint: `${NETWORK_NONE} Otherwise install slirp4netns (or passt, for Podman 4.4 and later).`,
        };
    }
    m = /no sub([ug]id) ranges found for user \\?"([^"\\]*)\\?"/.exec(stderr);
    if (m) {
        return {
            kind: 'no-subids',
            message: `The user ${m[2]} has no subordinate ${m[1]}s: rootless Podman maps only that one id, and images with other owners fail.`,
            hint: `Add ranges to /etc/subuid and /etc/subgid (usermod --add-subuids 100000-165535 --add-subgids 100000-165535 ${m[2]}), then run \`podman system migrate\`.`,
        };
    }
    m = /(newuidmap|newgidmap)\\?": executable file not found/.exec(stderr);
    if (m) {
        return {
            kind: 'newuidmap-missing',
            message: `Rootless Podman needs ${m[1]}, which is not installed.`,
            hint: 'Install newuidmap and newgidmap (Debian and Ubuntu: the uidmap package), then run `podman system migrate`.',
        };
    }
    if (/keep-id is only supported in rootless mode/.test(stderr)) {
        return {
            kind: 'keep-id-rootful',
            message: 'Podman runs rootful here, and rootful Podman refuses --userns=keep-id.',
            hint: 'Derive the user namespace arguments from the detected engine mode (rootful: none).',
        };
    }
    // Docker's `--init` (tini) starts, then cannot exec the command: `[FATAL tini (7)] exec sh failed: No
    // such file or directory` (exit 127): the same failure, one step later.
    m =
        /exec: \\?"([^"\\]*)\\?": executable file not found in \$PATH/.exec(stderr) ??
            /\[FATAL tini \(\d+\)\] exec (\S+) failed: No such file or directory/.exec(stderr);
    if (m || /OCI runtime attempted to invoke a command that was not found/.test(stderr)) {
        const command = m?.[1];
        return {
            kind: 'command-not-found',
            message: command === 'sh'
                ? 'The image has no `sh`: the container could not start (exit 127).'
                : `The container could not start: ${command ? `\`${command}\`` : 'its command'} is not in the image (exit 127).`,
            hint: 'Use an image with `sh` and `git` (input `image`).',
        };
    }
    m = /exec: \\?"([^"\\]*)\\?": permission denied/.exec(stderr);
    if (m || /OCI permission denied/.test(stderr)) {
        return {
            kind: 'command-not-executable',
            message: `The container could not start: ${m ? `\`${m[1]}\`` : 'its command'} is not executable (exit 126).`,
            hint: 'Check the image (input `image`): the command and `sh` must be executable files in it.',
        };
    }
    // Less precise words for the same two failures, from engines and versions that say less.
    if (/\/dev\/net\/tun|slirp4netns|pasta|setting up network|netns/i.test(stderr)) {
        return {
            kind: 'network-setup',
            message: 'The engine could not set up the network.',
            hint: `With rootless Podman and no /dev/net/tun: ${NETWORK_NONE}`,
        };
    }
    if (/executable file not found|no such file or directory.*sh|"sh": /i.test(stderr)) {
        return {
            kind: 'no-shell',
            message: 'The image has no `sh`.',
            hint: 'The command runs with `sh -c`: use an image with `sh` and `git` (input `image`).',
        };
    }
    return undefined;
}
/** ` (what went wrong. What to do.)` for a known start failure, to follow the engine's words; else ''. */
function startFailureHint(stderr) {
    const explained = explainStartFailure(stderr);
    return explained ? ` (${explained.message} ${explained.hint})` : '';
}


/***/ }),

/***/ 1814:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $q: () => (/* binding */ TimeLimitError),
/* harmony export */   Au: () => (/* binding */ engineWork),
/* harmony export */   PI: () => (/* binding */ timeLimitMs),
/* harmony export */   tW: () => (/* binding */ formatLimit)
/* harmony export */ });
/* unused harmony exports TIME_LIMITS_MS, TIME_LIMITS_OVERRIDE */
// How long each of the action's own containers and host-side programs may run: one table, so that every
// limit is in one place with its reason. A limit that runs out removes the container (or kills the
// program's process group) and fails the step with an error that names what ran out, where (a
// TimeLimitError for a helper's work; proc.ts's ProcTimeLimitError for any other program on the host).
//
// The limits are generous on purpose: they exist so that a hostile sandbox or image cannot hang a run or
// the reaper forever, not to hurry honest work on a big repository. Each one is far above what the
// honest case takes on a slow runner, and far below GitHub's six-hour job limit.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const TIME_LIMITS_MS = {
    // Creating a sandbox is `git init` and a checkout of the start commit (in a helper container, or on the
    // host for disk sandboxes). A checkout of a very large repository (several hundred thousand files) takes
    // a few minutes on a runner's disk; half an hour leaves room for a busy machine and a cold cache.
    create: 30 * MINUTE,
    // Offering origin's branch inside a reused sandbox is one `git update-ref`: well under a second, plus
    // the container's start (seconds; tens of seconds on a loaded rootless Podman).
    offer: 2 * MINUTE,
    // Capturing after the command: `git add -A` of the work tree (hashes every changed file) and a bundle of
    // the new commits, written out at most max-import-size bytes.
    capture: 10 * MINUTE,
    // The reaper's bundle of a forced sandbox's work: the same work as `capture`, but nobody waits on it
    // interactively and the sandbox may have been left with gigabytes of changes.
    'archive-capture': 30 * MINUTE,
    // One inspection helper looks at up to 48 sandboxes (signals, `git status`, `du`); `git status` of a
    // large work tree with a cold cache takes seconds each.
    inspect: 5 * MINUTE,
    // An orphan's files as a .tar.gz (a volume's in a helper container, a folder's with tar on the host),
    // capped in bytes too (archive.ts): gzip writes 20-50 MB/s on one core, so 30 minutes covers the cap.
    'archive-volume': 30 * MINUTE,
    'archive-files': 30 * MINUTE,
    // ---- programs on the host (proc.ts kills the program's whole process group: a remote helper, ssh) ----
    // Local git commands (rev-parse, rev-list, for-each-ref, update-ref, merge-base, cat-file): milliseconds
    // to seconds; a rev-list or fsck-free walk of a very large history takes a minute on a slow runner.
    git: 10 * MINUTE,
    // A fetch from origin (the branch a run asks for, a fork's pull-request head). It runs outside the
    // repository lock, so it holds up only its own run; git's own low-speed limit (gitNetworkConfig in
    // git.ts) ends a stalled HTTP transfer after a minute, and this limit ends what that cannot see (ssh, a
    // slow trickle). A first fetch of a long branch into a shallow checkout can take several minutes.
    'git-fetch': 10 * MINUTE,
    // A push of the run's commits (only the new ones travel).
    'git-push': 15 * MINUTE,
    // Fetching a sandbox's bundle (at most max-import-size) with fsck into the private store.
    'git-import': 30 * MINUTE,
    // Reading what a push or a patch carries (git's log of the commits' added lines) while it is scanned
    // for secrets (secret-gate.ts): at most 256 MiB of git's output, scanned at several MB/s.
    'secret-scan': 5 * MINUTE,
    // The engine CLI asked something (inspect, ps, info, version, logs): a second; tens of seconds on a
    // loaded rootless Podman that first sets up its user namespace.
    'engine-query': 2 * MINUTE,
    // The engine CLI changing something (kill, rm, volume create or rm): removing a volume of a large
    // sandbox deletes every file in it, minutes for millions of files.
    'engine-change': 10 * MINUTE,
    // Pulling the `image` input when it is missing: a large image over a runner's network.
    'engine-pull': 30 * MINUTE,
    // Importing an image made of the runner's own binaries (a few to tens of MB): seconds.
    'engine-import': 5 * MINUTE,
    // ldd and `git --exec-path` while such an image is made: milliseconds.
    ldd: 30 * SECOND,
};
/**
 * Tests only: `WORKTREE_SANDBOX_TEST_TIME_LIMITS=create=5,offer=3` (seconds) shortens the named limits so
 * that a test can watch one run out. It can only shorten: a value above the limit, or one that is not a
 * positive number, is ignored, so no environment can lift a limit.
 */
const TIME_LIMITS_OVERRIDE = 'WORKTREE_SANDBOX_TEST_TIME_LIMITS';
function timeLimitMs(work, env = process.env) {
    const limit = TIME_LIMITS_MS[work];
    for (const item of (env[TIME_LIMITS_OVERRIDE] ?? '').split(',')) {
        const [name, value] = item.split('=');
        const seconds = Number(value);
        if (name?.trim() === work && Number.isFinite(seconds) && seconds > 0)
            return Math.min(limit, seconds * SECOND);
    }
    return limit;
}
/** Which time limit an engine CLI call runs under: what it does decides how long it may honestly take. */
function engineWork(args) {
    const [command, sub] = args;
    if (command === 'pull')
        return 'engine-pull';
    if (command === 'import')
        return 'engine-import';
    if (['kill', 'rm', 'stop', 'create', 'rmi'].includes(command))
        return 'engine-change';
    if (['volume', 'container', 'image', 'network'].includes(command) &&
        ['create', 'rm', 'prune', 'kill', 'stop'].includes(sub))
        return 'engine-change';
    return 'engine-query';
}
/** What a time limit stopped: which work, on which sandbox(es), after how long. */
class TimeLimitError extends Error {
    work;
    where;
    limitMs;
    onHost;
    constructor(work, 
    /** Which sandbox (or sandboxes) it worked on, as a person reads it. */
    where, limitMs, 
    /** What that means for the sandbox: what was kept, what was not done. */
    consequence, 
    /** A program on the host (its process group was killed), not a helper container (removed). */
    onHost = false) {
        super(`The ${work} ${onHost ? 'program' : 'helper container'} on ${where} ran out of its time limit (${formatLimit(limitMs)}) and was ${onHost ? 'killed' : 'removed'}: ${consequence}`);
        this.work = work;
        this.where = where;
        this.limitMs = limitMs;
        this.onHost = onHost;
        this.name = 'TimeLimitError';
    }
}
function formatLimit(ms) {
    if (ms % MINUTE === 0)
        return `${ms / MINUTE} min`;
    return `${Math.round(ms / 100) / 10} s`;
}


/***/ }),

/***/ 2428:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ toolPath)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// Where a program is: its absolute path on PATH, found once per PATH value.


const toolPaths = new Map();
/**
 * The tool's absolute path, looked up once per PATH value. Searching every PATH folder (one stat after
 * another) on every call costs a few milliseconds each time, and the action makes a dozen calls before the
 * user's command starts. A failed lookup is not remembered.
 */
function toolPath(tool) {
    const key = `${process.env.PATH ?? ''}\0${tool}`;
    let found = toolPaths.get(key);
    if (!found) {
        found = findOnPath(tool, process.env.PATH ?? '');
        toolPaths.set(key, found);
        found.catch(() => toolPaths.delete(key));
    }
    return found;
}
/**
 * The first executable file named `tool` in PATH's folders, in PATH's order (a name with a slash is taken
 * as a path). Looked up synchronously: a few stat calls once per tool and PATH value, instead of a round of
 * the thread pool per folder before the first process can start. (Not @actions/io's `which`: its module,
 * with `assert`, costs the start of every step.)
 */
function findOnPath(tool, searchPath) {
    const candidates = tool.includes('/')
        ? [node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(tool)]
        : searchPath
            .split(node_path__WEBPACK_IMPORTED_MODULE_1__.delimiter)
            .filter((dir) => dir)
            .map((dir) => node_path__WEBPACK_IMPORTED_MODULE_1__.join(dir, tool));
    const first = candidates.find((file) => {
        try {
            node_fs__WEBPACK_IMPORTED_MODULE_0__.accessSync(file, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.X_OK);
            return node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync(file).isFile();
        }
        catch {
            return false;
        }
    });
    if (!first)
        return Promise.reject(new Error(`Unable to locate executable file: ${tool} (not an executable file on PATH).`));
    return Promise.resolve(first);
}


/***/ }),

/***/ 1434:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   S8: () => (/* binding */ reportLeftNetworkContainers),
/* harmony export */   a9: () => (/* binding */ removeLeftNetworkContainers),
/* harmony export */   fg: () => (/* binding */ sidecarName)
/* harmony export */ });
/* unused harmony export leftByKilledRuns */
/* harmony import */ var _engine_labels_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9667);

const SIDECAR_SUFFIX = '-net';
/** The sidecar of the command's container `command` (a command's name ends in hex, never in this). */
function sidecarName(command) {
    return `${command}${SIDECAR_SUFFIX}`;
}
/** States in which no process of the container runs, nor is about to. */
const ENDED = new Set(['exited', 'dead', 'stopped']);
/**
 * A command's container in these states with no running sidecar can never run: it joins the sidecar's
 * network, which the engine needs running to start it (a run killed between `create` and `start`).
 */
const NOT_RUNNING = new Set([...ENDED, 'created', 'configured']);
/**
 * The names to remove, in the order they go: the commands' containers first (Podman keeps a sidecar that
 * one still joins), then the sidecars. A sidecar that ended is one whose forwarder ended: its proxy was
 * gone, or it is being removed by its own run already.
 */
function leftByKilledRuns(containers) {
    const running = new Set(containers.filter((c) => !NOT_RUNNING.has(c.status)).map((c) => c.name));
    const isSidecar = (c) => c.name.endsWith(SIDECAR_SUFFIX);
    const commands = containers.filter((c) => !isSidecar(c) &&
        NOT_RUNNING.has(c.status) &&
        c.networkMode.startsWith('container:') &&
        !running.has(sidecarName(c.name)));
    const sidecars = containers.filter((c) => isSidecar(c) && ENDED.has(c.status));
    return [...commands, ...sidecars].map((c) => c.name);
}
/**
 * Removes what killed runs with an allow-list left (leftByKilledRuns); returns the names removed. Never
 * throws: a run or a reap goes on whatever the engine says here.
 */
async function removeLeftNetworkContainers(engine) {
    try {
        const removed = [];
        for (const name of leftByKilledRuns(await engine.listContainers(`${(0,_engine_labels_js__WEBPACK_IMPORTED_MODULE_0__/* .label */ .Pf)('role')}=command`)))
            if (await engine.removeContainer(name))
                removed.push(name);
        return removed;
    }
    catch {
        return [];
    }
}
/** removeLeftNetworkContainers, said in one line when it removed anything. */
async function reportLeftNetworkContainers(engine, ui) {
    const removed = await removeLeftNetworkContainers(engine);
    if (removed.length)
        ui.info(`Removed ${removed.length} container(s) that killed runs with a network allow-list left: ${removed.join(', ')}.`);
}


/***/ }),

/***/ 7936:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Q6: () => (/* binding */ MODEL_APIS),
  SF: () => (/* binding */ budgetAnswer),
  mE: () => (/* binding */ classifyRequest),
  k: () => (/* binding */ modelApi)
});

// UNUSED EXPORTS: routedPath

;// CONCATENATED MODULE: ./src/network/apis/api.ts
// What the proxy knows of one model API, as one record (anthropic.ts, openai.ts, gemini.ts): how its
// requests are recognised, where its answers report their usage, what the proxy answers once the budget is
// spent, and the hosts of its preset. model-apis.ts lists the records and holds what they share; adding
// an API is one record and its spec. ADR 0009, docs/network.md.
/** Why a path spends tokens unread, from a list of [routed path, what it is]. */
function unreadableBy(paths, path) {
    const found = paths.find(([re]) => re.test(path));
    return found && `${found[1]} reports no usage the proxy can read`;
}

;// CONCATENATED MODULE: ./src/network/apis/anthropic.ts
// Anthropic's Messages API (`/v1/messages`, under any gateway prefix): usage at `message_start` and in each
// `message_delta` of a stream, cache reads and writes counted apart from `input_tokens`. Its batches and
// the legacy Text Completions API report no usage the proxy can read.

const UNREADABLE = [
    [/\/v1\/messages\/batches$/, 'a message batch'],
    [/\/v1\/complete$/, 'the legacy Text Completions API'],
];
const anthropic = {
    name: 'anthropic',
    presetHosts: ['api.anthropic.com'],
    free: [/\/v1\/messages\/count_tokens$/],
    readable: (path, origin) => (path.endsWith('/v1/messages') ? { path: origin } : undefined),
    unreadable: (path) => unreadableBy(UNREADABLE, path),
    namedBy: (header) => header === 'anthropic-version' || header === 'x-api-key',
    fields: ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'],
    usage(f) {
        if (!f.has('input_tokens', 'output_tokens'))
            return undefined;
        const cacheRead = f.get('cache_read_input_tokens');
        const cacheWrite = f.get('cache_creation_input_tokens');
        // Anthropic counts cached input apart from input_tokens; the others count it within.
        return {
            input: f.get('input_tokens') + cacheRead + cacheWrite,
            output: f.get('output_tokens'),
            cacheRead,
            cacheWrite,
        };
    },
    budgetError: (message) => ({ type: 'error', error: { type: 'rate_limit_error', message } }),
};

;// CONCATENATED MODULE: ./src/network/apis/gemini.ts
const GENERATE = /\/(?:tuned)?models\/([^/:]+):(stream)?generatecontent$/;
const ACTION = /\/(?:tuned)?models\/[^/:]+:([a-z]+)$/;
const RETRY_INFO = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '86400s' };
/** The target with `alt` (or `$alt`) set to `sse` for a stream and `json` otherwise, unless it is one. */
function readableTarget(target, stream) {
    const q = target.indexOf('?');
    if (q === -1)
        return target;
    const params = new URLSearchParams(target.slice(q + 1));
    const alts = [...params.getAll('alt'), ...params.getAll('$alt')].map((a) => a.toLowerCase());
    if (alts.every((a) => a === 'json' || a === 'sse'))
        return target;
    params.delete('alt');
    params.delete('$alt');
    params.set('alt', stream ? 'sse' : 'json');
    return `${target.slice(0, q)}?${params.toString()}`;
}
const gemini = {
    name: 'gemini',
    presetHosts: ['generativelanguage.googleapis.com'],
    free: [/:counttokens$/],
    readable(path, origin) {
        const generate = GENERATE.exec(path);
        if (!generate)
            return undefined;
        return { pathModel: generate[1].slice(0, 200), path: readableTarget(origin, generate[2] !== undefined) };
    },
    unreadable(path) {
        const action = ACTION.exec(path);
        return action ? `Gemini's :${action[1]} reports no usage the proxy can read` : undefined;
    },
    namedBy: (header) => header === 'x-goog-api-key',
    fields: [
        'promptTokenCount',
        'candidatesTokenCount',
        'cachedContentTokenCount',
        'thoughtsTokenCount',
        'toolUsePromptTokenCount',
    ],
    usage(f) {
        if (!f.has('promptTokenCount', 'candidatesTokenCount'))
            return undefined;
        return {
            input: f.get('promptTokenCount') + f.get('toolUsePromptTokenCount'),
            output: f.get('candidatesTokenCount') + f.get('thoughtsTokenCount'),
            cacheRead: f.get('cachedContentTokenCount'),
            cacheWrite: 0,
        };
    },
    budgetError: (message) => ({
        error: { code: 429, message, status: 'RESOURCE_EXHAUSTED', details: [RETRY_INFO] },
    }),
};

;// CONCATENATED MODULE: ./src/network/apis/openai.ts
// OpenAI's Chat Completions, Completions, Responses and Embeddings (and Azure's and gateways' paths to
// them): usage as `prompt_tokens`/`completion_tokens` or `input_tokens`/`output_tokens`. A (chat)
// completions stream reports it only when asked (`stream_options.include_usage`), which the proxy adds.
// Assistants runs, images, batches and audio report no usage the proxy can read. Its error format is the
// one gateways speak, so a request no record recognises is refused in it.

const openai_UNREADABLE = [
    [/\/(?:threads\/runs|threads\/[^/]+\/runs)$/, 'an Assistants run'],
    [/\/images\/(?:generations|edits|variations)$/, 'the Images API'],
    [/\/batches$/, 'a batch'],
    [/\/audio\/(?:speech|transcriptions|translations)$/, 'the Audio API'],
];
const openai = {
    name: 'openai',
    presetHosts: ['api.openai.com'],
    free: [/\/responses\/input_tokens$/],
    readable(path, origin) {
        if (/\/(?:chat\/completions|completions)$/.test(path))
            return { path: origin, rewrite: 'include-usage' };
        return /\/(?:responses|embeddings)$/.test(path) ? { path: origin } : undefined;
    },
    unreadable: (path) => unreadableBy(openai_UNREADABLE, path),
    namedBy: () => false,
    fields: [
        'prompt_tokens',
        'completion_tokens',
        'prompt_tokens_details.cached_tokens',
        'input_tokens',
        'output_tokens',
        'input_tokens_details.cached_tokens',
    ],
    usage(f) {
        if (f.has('prompt_tokens'))
            return {
                input: f.get('prompt_tokens'),
                output: f.get('completion_tokens'),
                cacheRead: f.get('prompt_tokens_details.cached_tokens'),
                cacheWrite: 0,
            };
        if (f.has('input_tokens', 'output_tokens'))
            return {
                input: f.get('input_tokens'),
                output: f.get('output_tokens'),
                cacheRead: f.get('input_tokens_details.cached_tokens'),
                cacheWrite: 0,
            };
        return undefined;
    },
    budgetError: (message) => ({
        error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
    }),
};

;// CONCATENATED MODULE: ./src/network/model-apis.ts
// What a request to a model API is, for the budget: free (it spends no tokens), metered with a usage the
// meter can read (and, where the proxy must change the request to make it readable, how), or metered with
// a usage it cannot read. Known by the request's method and path, so that gateways (a prefix before the
// path) and test fakes on any host work; on a host the proxy meters (one with a credential), every other
// POST counts too, whatever its path, and its usage is unreadable. Each API is one record (apis/); this
// module lists them and asks them in turn. Pure. ADR 0009, docs/network.md.



/** The model APIs the proxy knows, in the order they are asked. */
const MODEL_APIS = [anthropic, openai, gemini];
/** Each API's record by its name. */
const modelApi = (name) => MODEL_APIS.find((api) => api.name === name) ?? openai;
/** A request target's path as a server routes it: dot segments resolved, escapes decoded, `//` and case folded. */
function routedPath(target) {
    let url;
    try {
        // Origin form is joined by hand: `//x/...` would otherwise be read as a host.
        url = new URL(target.startsWith('/') ? `http://path.invalid${target}` : target);
    }
    catch {
        return undefined;
    }
    let pathname = url.pathname;
    try {
        pathname = decodeURIComponent(pathname);
    }
    catch {
        // an escape that does not decode: matched as written
    }
    const path = pathname
        .replace(/\/{2,}/g, '/')
        .replace(/\/+$/, '')
        .toLowerCase();
    return { path, search: url.search };
}
/** The family a request of an unknown path is for, by its headers (else OpenAI's), for the refusal's format. */
function apiByHeaders(headers) {
    for (let i = 0; i < headers.length; i += 2) {
        const name = headers[i].toLowerCase();
        const api = MODEL_APIS.find((a) => a.namedBy(name));
        if (api)
            return api.name;
    }
    return openai.name;
}
/**
 * What a request is for the budget, or undefined when it is not a model API's: every method but POST, and
 * the records' free paths, are free; a POST a record reads is metered and read; one a record names
 * unreadable, and with `everyPost` (a host the proxy meters) every other POST, is metered but unreadable.
 * `target` is the request target as sent (origin form or absolute); `headers` raw, for the family.
 */
function classifyRequest(method, target, headers = [], everyPost = false) {
    const routed = routedPath(target);
    const post = (method ?? '').toUpperCase() === 'POST';
    if (!post)
        return everyPost ? { kind: 'free' } : undefined;
    const origin = target.startsWith('/') ? target : routed ? new URL(target).pathname + routed.search : target;
    const unreadable = (api, why) => ({
        kind: 'unreadable',
        api,
        path: origin,
        why,
    });
    if (!routed)
        return everyPost
            ? unreadable(apiByHeaders(headers), 'a request target the proxy cannot read')
            : undefined;
    const p = routed.path;
    if (MODEL_APIS.some((api) => api.free.some((re) => re.test(p))))
        return { kind: 'free' };
    for (const api of MODEL_APIS) {
        const call = api.readable(p, origin);
        if (call)
            return { kind: 'metered', api: api.name, ...call };
    }
    for (const api of MODEL_APIS) {
        const why = api.unreadable(p);
        if (why)
            return unreadable(api.name, why);
    }
    return everyPost
        ? unreadable(apiByHeaders(headers), 'a POST to a path whose usage the proxy cannot read')
        : undefined;
}
/**
 * The proxy's own answer to a metered request it refuses: status 429 with an error body in that API's own
 * format, so that its official SDK raises its usual rate-limit error. `x-should-retry: false` is the header
 * the Anthropic and OpenAI SDKs obey before their own retry rule for 429; Gemini CLI ignores it and obeys
 * Google's RetryInfo instead. The budget does not come back within the run: a retry would be refused again.
 */
function budgetAnswer(api, message) {
    return {
        statusCode: 429,
        headers: { 'content-type': 'application/json', 'x-should-retry': 'false', connection: 'close' },
        body: JSON.stringify(modelApi(api).budgetError(`worktree-sandbox: ${message}`)),
    };
}


/***/ }),

/***/ 3977:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  pn: () => (/* binding */ PolicyError),
  LD: () => (/* binding */ decide),
  S7: () => (/* binding */ isProxied),
  cS: () => (/* binding */ normalizeHost),
  gu: () => (/* binding */ parseCredentials),
  MO: () => (/* binding */ parseNetwork)
});

// UNUSED EXPORTS: DEFAULT_PORTS, isHostName, parsePattern, proposeAllowList

// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __nccwpck_require__(7030);
// EXTERNAL MODULE: ./src/network/model-apis.ts + 4 modules
var model_apis = __nccwpck_require__(7936);
;// CONCATENATED MODULE: ./src/network/presets.ts
// The presets a `network` allow-list may name (`@github`...): the one list of their hosts. docs/network.md
// lists them for users; a preset's hosts take the default ports (443 and 80) unless written with one. Each
// model API's preset is in its record (apis/).

const presets_PRESETS = {
    // git over HTTPS, the API, raw content, release and artifact downloads, the container registry.
    github: [
        'github.com',
        'api.github.com',
        'codeload.github.com',
        'raw.githubusercontent.com',
        'objects.githubusercontent.com',
        'release-assets.githubusercontent.com',
        'uploads.github.com',
        'ghcr.io',
        'pkg-containers.githubusercontent.com',
    ],
    npm: ['registry.npmjs.org', 'registry.yarnpkg.com'],
    pypi: ['pypi.org', 'files.pythonhosted.org'],
    debian: ['deb.debian.org', 'security.debian.org'],
    ...Object.fromEntries(model_apis/* MODEL_APIS */.Q6.map((api) => [api.name, api.presetHosts])),
};
const presets_PRESET_NAMES = Object.keys(presets_PRESETS);

;// CONCATENATED MODULE: ./src/network/policy.ts
// The network policy: what `network` and `credentials` say, parsed, and the one decision the proxy asks
// for every CONNECT and every request (`decide`). Pure: no sockets, no DNS.


function isProxied(policy) {
    return policy.mode === 'audit' || policy.mode === 'allow';
}
const DEFAULT_PORTS = [443, 80];
/** Why a value was refused: what the settings layer puts in its InputError. */
class PolicyError extends Error {
    input;
    value;
    accepted;
    constructor(input, value, accepted) {
        super(`${input}: ${JSON.stringify(value)}: ${accepted}`);
        this.input = input;
        this.value = value;
        this.accepted = accepted;
        this.name = 'PolicyError';
    }
}
// A DNS name: labels of letters, digits and hyphens (not at either end), the last one not all digits (so
// that `127.1` or `2130706433`, which resolvers read as addresses, are never taken for names).
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const NAME = new RegExp(`^(?:${LABEL}\\.)*${LABEL}$`);
function isHostName(host) {
    if (host.length > 253 || !NAME.test(host))
        return false;
    const last = host.slice(host.lastIndexOf('.') + 1);
    return !/^\d+$/.test(last) && !/^0x[0-9a-f]*$/.test(last);
}
/** Lower case, one trailing dot dropped, IPv6 brackets removed: how the proxy compares names. */
function normalizeHost(host) {
    let h = host.trim().toLowerCase();
    if (h.startsWith('[') && h.endsWith(']'))
        h = h.slice(1, -1);
    if (h.endsWith('.'))
        h = h.slice(0, -1);
    return h;
}
const PATTERN_HELP = 'bridge, none, audit, or an allow-list: host names (api.example.com), subdomains (*.example.com), each ' +
    `with an optional :port (default 443 and 80), and presets (${presets_PRESET_NAMES.map((p) => `@${p}`).join(' ')}), ` +
    'one per line or separated by commas';
/** `network`: bridge, none, audit, or an allow-list (without credentials: see parseCredentials). */
function parseNetwork(raw) {
    const text = raw.trim();
    const lower = text.toLowerCase();
    if (lower === 'bridge' || lower === 'none')
        return { mode: lower };
    if (lower === 'audit')
        return { mode: 'audit', credentials: [] };
    const entries = text
        .split(/[\n,]/)
        .map((e) => e.trim())
        .filter(Boolean);
    if (entries.length === 0)
        throw new PolicyError('network', raw, PATTERN_HELP);
    const rules = [];
    for (const entry of entries)
        rules.push(...parseEntry(entry));
    return { mode: 'allow', rules: dedupe(rules), credentials: [] };
}
function parseEntry(entry) {
    if (['bridge', 'none', 'audit'].includes(entry.toLowerCase()))
        throw new PolicyError('network', entry, `${entry} stands alone; it cannot be part of an allow-list`);
    if (entry.startsWith('@')) {
        const name = entry.slice(1).toLowerCase();
        const hosts = presets_PRESETS[name];
        if (!hosts)
            throw new PolicyError('network', entry, `an unknown preset; the presets are ${presets_PRESET_NAMES.map((p) => `@${p}`).join(', ')}`);
        return hosts.map((host) => ({ host, wildcard: false, ports: DEFAULT_PORTS }));
    }
    return [parsePattern(entry)];
}
function parsePattern(entry) {
    const bad = (why) => new PolicyError('network', entry, why);
    if (/\s/.test(entry))
        throw bad(`one host pattern per entry (no spaces); ${PATTERN_HELP}`);
    if (/[/@]/.test(entry))
        throw bad(`a malformed pattern: a host name, not a URL or path; ${PATTERN_HELP}`);
    let hostPart = entry;
    let ports = DEFAULT_PORTS;
    const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
        hostPart = bracketed[1];
        if (bracketed[2] !== undefined)
            ports = [port(bracketed[2], entry)];
    }
    else if ((entry.match(/:/g) ?? []).length === 1) {
        const at = entry.lastIndexOf(':');
        hostPart = entry.slice(0, at);
        ports = [port(entry.slice(at + 1), entry)];
    }
    else if (entry.includes(':') && !external_node_net_.isIPv6(entry)) {
        throw bad(`a malformed pattern; ${PATTERN_HELP}`);
    }
    const host = normalizeHost(hostPart);
    if (host === '*' || host === '*.')
        throw bad('a bare * would allow every host: use `network: audit` to record what a run needs, or `bridge`');
    if (host.startsWith('*.')) {
        const suffix = host.slice(2);
        if (!isHostName(suffix) || !suffix.includes('.'))
            throw bad(`a malformed pattern: * stands only for the leftmost labels of a domain such as *.example.com`);
        return { host: suffix, wildcard: true, ports };
    }
    if (external_node_net_.isIP(host))
        return { host, wildcard: false, ports };
    // Docker's own network names: someone who writes them means the engine's network, which this is not.
    if (['host', 'default', 'private'].includes(host))
        throw bad(`${host} is one of Docker's network modes, which this action does not offer; ${PATTERN_HELP}`);
    if (!isHostName(host))
        throw bad(`a malformed pattern; ${PATTERN_HELP}`);
    return { host, wildcard: false, ports };
}
function port(text, entry) {
    const value = Number(text);
    if (!/^\d{1,5}$/.test(text) || value < 1 || value > 65535)
        throw new PolicyError('network', entry, 'a port from 1 to 65535 after the colon');
    return value;
}
function dedupe(rules) {
    const seen = new Map();
    for (const rule of rules) {
        const key = `${rule.wildcard ? '*.' : ''}${rule.host}`;
        const had = seen.get(key);
        seen.set(key, had ? { ...had, ports: [...new Set([...had.ports, ...rule.ports])] } : rule);
    }
    return [...seen.values()];
}
/**
 * `credentials`: one `<host> <Header-Name>: <value>` a line. Only with an allow-list or audit (the proxy is
 * what sets them); each host is allowed implicitly on the default ports. The header is set over TLS only,
 * unless the line names its scheme as `http://host[:port]` (then on plain HTTP only, port 80 by default).
 */
function parseCredentials(raw, policy) {
    const lines = raw
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
    if (lines.length === 0)
        return policy;
    // The value is a secret: errors show the host and header name at most, never the line.
    if (!isProxied(policy))
        throw new PolicyError('credentials', `(${lines.length} line(s))`, `credentials need an allow-list or audit in network (it is ${policy.mode}): the proxy is what sets them`);
    const credentials = [];
    const implicit = [];
    for (const [i, line] of lines.entries()) {
        const m = /^(\S+)\s+([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/.exec(line);
        const first = parseCredentialHost(line.split(/\s/)[0]);
        const host = first?.host ?? '';
        if (!m || !m[3].trim()) {
            throw new PolicyError('credentials', `line ${i + 1}${host ? ` (${host})` : ''}`, 'one `<host> <Header-Name>: <value>` a line, such as api.anthropic.com x-api-key: <the key> (from a secret); ' +
                '`http://<host>[:port] <Header-Name>: <value>` sends it in clear, to an internal service');
        }
        if (!first)
            throw new PolicyError('credentials', `line ${i + 1}`, 'a host name, with an optional :port (no pattern, no address) and an optional http:// or https:// before it, first on each line');
        credentials.push({ host, scheme: first.scheme, ports: first.ports, header: m[2], value: m[3].trim() });
        implicit.push({ host, wildcard: false, ports: first.ports });
    }
    return policy.mode === 'allow'
        ? { ...policy, rules: dedupe([...policy.rules, ...implicit]), credentials }
        : { ...policy, credentials };
}
/**
 * A credential line's host: a name, with an optional port that is allowed, and an optional scheme. Without
 * one (or with `https://`) the header goes inside TLS, on the line's ports (443 and 80 unless it names one);
 * `http://` means plain HTTP, on port 80 unless the line names another.
 */
function parseCredentialHost(text) {
    const scheme = /^(https?):\/\//i.exec(text);
    const plain = scheme?.[1].toLowerCase() === 'http';
    try {
        const rule = parsePattern(scheme ? text.slice(scheme[0].length) : text);
        if (rule.wildcard || external_node_net_.isIP(rule.host))
            return undefined;
        const ports = plain && rule.ports === DEFAULT_PORTS ? [80] : rule.ports;
        return { ...rule, ports, scheme: plain ? 'http' : 'https' };
    }
    catch {
        return undefined;
    }
}
/** Whether the proxy lets a connection to `host:port` through (`host` as the client wrote it). */
function decide(policy, rawHost, port) {
    const host = normalizeHost(rawHost);
    const literal = external_node_net_.isIP(host) !== 0;
    if (!literal && !isHostName(host))
        return { allowed: false, reason: 'not a host name' };
    if (policy.mode === 'audit')
        return { allowed: true };
    const rule = policy.rules.find((r) => r.wildcard ? !literal && host.endsWith(`.${r.host}`) : r.host === host);
    if (!rule)
        return { allowed: false, reason: literal ? 'an IP address that is not listed' : 'not in the allow-list' };
    if (!rule.ports.includes(port))
        return { allowed: false, reason: `port ${port} is not allowed for this host` };
    return { allowed: true };
}
/** The `network:` value that would have let these hosts through (audit's proposal). */
function proposeAllowList(reached) {
    const byHost = new Map();
    for (const { host, port } of reached) {
        const h = normalizeHost(host);
        byHost.set(h, (byHost.get(h) ?? new Set()).add(port));
    }
    const presetFor = (host) => PRESET_NAMES.find((p) => PRESETS[p].includes(host));
    const presets = new Set();
    const entries = [];
    for (const [host, ports] of [...byHost].sort(([a], [b]) => a.localeCompare(b))) {
        const preset = presetFor(host);
        const defaultOnly = [...ports].every((p) => DEFAULT_PORTS.includes(p));
        if (preset && defaultOnly)
            presets.add(`@${preset}`);
        else if (defaultOnly)
            entries.push(host.includes(':') ? `[${host}]` : host);
        else
            for (const p of [...ports].sort((a, b) => a - b))
                entries.push(host.includes(':') ? `[${host}]:${p}` : `${host}:${p}`);
    }
    return [...[...presets].sort(), ...entries].join(', ');
}


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 9140:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("constants");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 2250:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("dns");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 1421:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 4708:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:https");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1708:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:process");

/***/ }),

/***/ 6466:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream/promises");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 6928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 2203:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("stream");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 2018:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tty");

/***/ }),

/***/ 7016:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("url");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 8909:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

const { Argument } = __nccwpck_require__(9154);
const { Command } = __nccwpck_require__(4348);
const { CommanderError, InvalidArgumentError } = __nccwpck_require__(1135);
const { Help } = __nccwpck_require__(9754);
const { Option } = __nccwpck_require__(5240);

exports.DM = new Command();

exports.gu = (name) => new Command(name);
exports.Ww = (flags, description) => new Option(flags, description);
exports.er = (name, description) => new Argument(name, description);

/**
 * Expose classes
 */

exports.uB = Command;
exports.c$ = Option;
exports.ef = Argument;
exports._V = Help;

exports.b7 = CommanderError;
exports.Di = InvalidArgumentError;
exports.a2 = InvalidArgumentError; // Deprecated


/***/ }),

/***/ 9154:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

const { InvalidArgumentError } = __nccwpck_require__(1135);

class Argument {
  /**
   * Initialize a new command argument with the given name and description.
   * The default is that the argument is required, and you can explicitly
   * indicate this with <> around the name. Put [] around the name for an optional argument.
   *
   * @param {string} name
   * @param {string} [description]
   */

  constructor(name, description) {
    this.description = description || '';
    this.variadic = false;
    this.parseArg = undefined;
    this.defaultValue = undefined;
    this.defaultValueDescription = undefined;
    this.argChoices = undefined;

    switch (name[0]) {
      case '<': // e.g. <required>
        this.required = true;
        this._name = name.slice(1, -1);
        break;
      case '[': // e.g. [optional]
        this.required = false;
        this._name = name.slice(1, -1);
        break;
      default:
        this.required = true;
        this._name = name;
        break;
    }

    if (this._name.endsWith('...')) {
      this.variadic = true;
      this._name = this._name.slice(0, -3);
    }
  }

  /**
   * Return argument name.
   *
   * @return {string}
   */

  name() {
    return this._name;
  }

  /**
   * @package
   */

  _collectValue(value, previous) {
    if (previous === this.defaultValue || !Array.isArray(previous)) {
      return [value];
    }

    previous.push(value);
    return previous;
  }

  /**
   * Set the default value, and optionally supply the description to be displayed in the help.
   *
   * @param {*} value
   * @param {string} [description]
   * @return {Argument}
   */

  default(value, description) {
    this.defaultValue = value;
    this.defaultValueDescription = description;
    return this;
  }

  /**
   * Set the custom handler for processing CLI command arguments into argument values.
   *
   * @param {Function} [fn]
   * @return {Argument}
   */

  argParser(fn) {
    this.parseArg = fn;
    return this;
  }

  /**
   * Only allow argument value to be one of choices.
   *
   * @param {string[]} values
   * @return {Argument}
   */

  choices(values) {
    this.argChoices = values.slice();
    this.parseArg = (arg, previous) => {
      if (!this.argChoices.includes(arg)) {
        throw new InvalidArgumentError(
          `Allowed choices are ${this.argChoices.join(', ')}.`,
        );
      }
      if (this.variadic) {
        return this._collectValue(arg, previous);
      }
      return arg;
    };
    return this;
  }

  /**
   * Make argument required.
   *
   * @returns {Argument}
   */
  argRequired() {
    this.required = true;
    return this;
  }

  /**
   * Make argument optional.
   *
   * @returns {Argument}
   */
  argOptional() {
    this.required = false;
    return this;
  }
}

/**
 * Takes an argument and returns its human readable equivalent for help usage.
 *
 * @param {Argument} arg
 * @return {string}
 * @private
 */

function humanReadableArgName(arg) {
  const nameOutput = arg.name() + (arg.variadic === true ? '...' : '');

  return arg.required ? '<' + nameOutput + '>' : '[' + nameOutput + ']';
}

exports.Argument = Argument;
exports.humanReadableArgName = humanReadableArgName;


/***/ }),

/***/ 4348:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

const EventEmitter = (__nccwpck_require__(8474).EventEmitter);
const childProcess = __nccwpck_require__(1421);
const path = __nccwpck_require__(6760);
const fs = __nccwpck_require__(3024);
const process = __nccwpck_require__(1708);

const { Argument, humanReadableArgName } = __nccwpck_require__(9154);
const { CommanderError } = __nccwpck_require__(1135);
const { Help, stripColor } = __nccwpck_require__(9754);
const { Option, DualOptions } = __nccwpck_require__(5240);
const { suggestSimilar } = __nccwpck_require__(5030);

class Command extends EventEmitter {
  /**
   * Initialize a new `Command`.
   *
   * @param {string} [name]
   */

  constructor(name) {
    super();
    /** @type {Command[]} */
    this.commands = [];
    /** @type {Option[]} */
    this.options = [];
    this.parent = null;
    this._allowUnknownOption = false;
    this._allowExcessArguments = false;
    /** @type {Argument[]} */
    this.registeredArguments = [];
    this._args = this.registeredArguments; // deprecated old name
    /** @type {string[]} */
    this.args = []; // cli args with options removed
    this.rawArgs = [];
    this.processedArgs = []; // like .args but after custom processing and collecting variadic
    this._scriptPath = null;
    this._name = name || '';
    this._optionValues = {};
    this._optionValueSources = {}; // default, env, cli etc
    this._storeOptionsAsProperties = false;
    this._actionHandler = null;
    this._executableHandler = false;
    this._executableFile = null; // custom name for executable
    this._executableDir = null; // custom search directory for subcommands
    this._defaultCommandName = null;
    this._exitCallback = null;
    this._aliases = [];
    this._combineFlagAndOptionalValue = true;
    this._description = '';
    this._summary = '';
    this._argsDescription = undefined; // legacy
    this._enablePositionalOptions = false;
    this._passThroughOptions = false;
    this._lifeCycleHooks = {}; // a hash of arrays
    /** @type {(boolean | string)} */
    this._showHelpAfterError = false;
    this._showSuggestionAfterError = true;
    this._savedState = null; // used in save/restoreStateBeforeParse

    // see configureOutput() for docs
    this._outputConfiguration = {
      writeOut: (str) => process.stdout.write(str),
      writeErr: (str) => process.stderr.write(str),
      outputError: (str, write) => write(str),
      getOutHelpWidth: () =>
        process.stdout.isTTY ? process.stdout.columns : undefined,
      getErrHelpWidth: () =>
        process.stderr.isTTY ? process.stderr.columns : undefined,
      getOutHasColors: () =>
        useColor() ?? (process.stdout.isTTY && process.stdout.hasColors?.()),
      getErrHasColors: () =>
        useColor() ?? (process.stderr.isTTY && process.stderr.hasColors?.()),
      stripColor: (str) => stripColor(str),
    };

    this._hidden = false;
    /** @type {(Option | null | undefined)} */
    this._helpOption = undefined; // Lazy created on demand. May be null if help option is disabled.
    this._addImplicitHelpCommand = undefined; // undecided whether true or false yet, not inherited
    /** @type {Command} */
    this._helpCommand = undefined; // lazy initialised, inherited
    this._helpConfiguration = {};
    /** @type {string | undefined} */
    this._helpGroupHeading = undefined; // soft initialised when added to parent
    /** @type {string | undefined} */
    this._defaultCommandGroup = undefined;
    /** @type {string | undefined} */
    this._defaultOptionGroup = undefined;
  }

  /**
   * Copy settings that are useful to have in common across root command and subcommands.
   *
   * (Used internally when adding a command using `.command()` so subcommands inherit parent settings.)
   *
   * @param {Command} sourceCommand
   * @return {Command} `this` command for chaining
   */
  copyInheritedSettings(sourceCommand) {
    this._outputConfiguration = sourceCommand._outputConfiguration;
    this._helpOption = sourceCommand._helpOption;
    this._helpCommand = sourceCommand._helpCommand;
    this._helpConfiguration = sourceCommand._helpConfiguration;
    this._exitCallback = sourceCommand._exitCallback;
    this._storeOptionsAsProperties = sourceCommand._storeOptionsAsProperties;
    this._combineFlagAndOptionalValue =
      sourceCommand._combineFlagAndOptionalValue;
    this._allowExcessArguments = sourceCommand._allowExcessArguments;
    this._enablePositionalOptions = sourceCommand._enablePositionalOptions;
    this._showHelpAfterError = sourceCommand._showHelpAfterError;
    this._showSuggestionAfterError = sourceCommand._showSuggestionAfterError;

    return this;
  }

  /**
   * @returns {Command[]}
   * @private
   */

  _getCommandAndAncestors() {
    const result = [];
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    for (let command = this; command; command = command.parent) {
      result.push(command);
    }
    return result;
  }

  /**
   * Define a command.
   *
   * There are two styles of command: pay attention to where to put the description.
   *
   * @example
   * // Command implemented using action handler (description is supplied separately to `.command`)
   * program
   *   .command('clone <source> [destination]')
   *   .description('clone a repository into a newly created directory')
   *   .action((source, destination) => {
   *     console.log('clone command called');
   *   });
   *
   * // Command implemented using separate executable file (description is second parameter to `.command`)
   * program
   *   .command('start <service>', 'start named service')
   *   .command('stop [service]', 'stop named service, or all if no name supplied');
   *
   * @param {string} nameAndArgs - command name and arguments, args are `<required>` or `[optional]` and last may also be `variadic...`
   * @param {(object | string)} [actionOptsOrExecDesc] - configuration options (for action), or description (for executable)
   * @param {object} [execOpts] - configuration options (for executable)
   * @return {Command} returns new command for action handler, or `this` for executable command
   */

  command(nameAndArgs, actionOptsOrExecDesc, execOpts) {
    let desc = actionOptsOrExecDesc;
    let opts = execOpts;
    if (typeof desc === 'object' && desc !== null) {
      opts = desc;
      desc = null;
    }
    opts = opts || {};
    const [, name, args] = nameAndArgs.match(/([^ ]+) *(.*)/);

    const cmd = this.createCommand(name);
    if (desc) {
      cmd.description(desc);
      cmd._executableHandler = true;
    }
    if (opts.isDefault) this._defaultCommandName = cmd._name;
    cmd._hidden = !!(opts.noHelp || opts.hidden); // noHelp is deprecated old name for hidden
    cmd._executableFile = opts.executableFile || null; // Custom name for executable file, set missing to null to match constructor
    if (args) cmd.arguments(args);
    this._registerCommand(cmd);
    cmd.parent = this;
    cmd.copyInheritedSettings(this);

    if (desc) return this;
    return cmd;
  }

  /**
   * Factory routine to create a new unattached command.
   *
   * See .command() for creating an attached subcommand, which uses this routine to
   * create the command. You can override createCommand to customise subcommands.
   *
   * @param {string} [name]
   * @return {Command} new command
   */

  createCommand(name) {
    return new Command(name);
  }

  /**
   * You can customise the help with a subclass of Help by overriding createHelp,
   * or by overriding Help properties using configureHelp().
   *
   * @return {Help}
   */

  createHelp() {
    return Object.assign(new Help(), this.configureHelp());
  }

  /**
   * You can customise the help by overriding Help properties using configureHelp(),
   * or with a subclass of Help by overriding createHelp().
   *
   * @param {object} [configuration] - configuration options
   * @return {(Command | object)} `this` command for chaining, or stored configuration
   */

  configureHelp(configuration) {
    if (configuration === undefined) return this._helpConfiguration;

    this._helpConfiguration = configuration;
    return this;
  }

  /**
   * The default output goes to stdout and stderr. You can customise this for special
   * applications. You can also customise the display of errors by overriding outputError.
   *
   * The configuration properties are all functions:
   *
   *     // change how output being written, defaults to stdout and stderr
   *     writeOut(str)
   *     writeErr(str)
   *     // change how output being written for errors, defaults to writeErr
   *     outputError(str, write) // used for displaying errors and not used for displaying help
   *     // specify width for wrapping help
   *     getOutHelpWidth()
   *     getErrHelpWidth()
   *     // color support, currently only used with Help
   *     getOutHasColors()
   *     getErrHasColors()
   *     stripColor() // used to remove ANSI escape codes if output does not have colors
   *
   * @param {object} [configuration] - configuration options
   * @return {(Command | object)} `this` command for chaining, or stored configuration
   */

  configureOutput(configuration) {
    if (configuration === undefined) return this._outputConfiguration;

    this._outputConfiguration = {
      ...this._outputConfiguration,
      ...configuration,
    };
    return this;
  }

  /**
   * Display the help or a custom message after an error occurs.
   *
   * @param {(boolean|string)} [displayHelp]
   * @return {Command} `this` command for chaining
   */
  showHelpAfterError(displayHelp = true) {
    if (typeof displayHelp !== 'string') displayHelp = !!displayHelp;
    this._showHelpAfterError = displayHelp;
    return this;
  }

  /**
   * Display suggestion of similar commands for unknown commands, or options for unknown options.
   *
   * @param {boolean} [displaySuggestion]
   * @return {Command} `this` command for chaining
   */
  showSuggestionAfterError(displaySuggestion = true) {
    this._showSuggestionAfterError = !!displaySuggestion;
    return this;
  }

  /**
   * Add a prepared subcommand.
   *
   * See .command() for creating an attached subcommand which inherits settings from its parent.
   *
   * @param {Command} cmd - new subcommand
   * @param {object} [opts] - configuration options
   * @return {Command} `this` command for chaining
   */

  addCommand(cmd, opts) {
    if (!cmd._name) {
      throw new Error(`Command passed to .addCommand() must have a name
- specify the name in Command constructor or using .name()`);
    }

    opts = opts || {};
    if (opts.isDefault) this._defaultCommandName = cmd._name;
    if (opts.noHelp || opts.hidden) cmd._hidden = true; // modifying passed command due to existing implementation

    this._registerCommand(cmd);
    cmd.parent = this;
    cmd._checkForBrokenPassThrough();

    return this;
  }

  /**
   * Factory routine to create a new unattached argument.
   *
   * See .argument() for creating an attached argument, which uses this routine to
   * create the argument. You can override createArgument to return a custom argument.
   *
   * @param {string} name
   * @param {string} [description]
   * @return {Argument} new argument
   */

  createArgument(name, description) {
    return new Argument(name, description);
  }

  /**
   * Define argument syntax for command.
   *
   * The default is that the argument is required, and you can explicitly
   * indicate this with <> around the name. Put [] around the name for an optional argument.
   *
   * @example
   * program.argument('<input-file>');
   * program.argument('[output-file]');
   *
   * @param {string} name
   * @param {string} [description]
   * @param {(Function|*)} [parseArg] - custom argument processing function or default value
   * @param {*} [defaultValue]
   * @return {Command} `this` command for chaining
   */
  argument(name, description, parseArg, defaultValue) {
    const argument = this.createArgument(name, description);
    if (typeof parseArg === 'function') {
      argument.default(defaultValue).argParser(parseArg);
    } else {
      argument.default(parseArg);
    }
    this.addArgument(argument);
    return this;
  }

  /**
   * Define argument syntax for command, adding multiple at once (without descriptions).
   *
   * See also .argument().
   *
   * @example
   * program.arguments('<cmd> [env]');
   *
   * @param {string} names
   * @return {Command} `this` command for chaining
   */

  arguments(names) {
    names
      .trim()
      .split(/ +/)
      .forEach((detail) => {
        this.argument(detail);
      });
    return this;
  }

  /**
   * Define argument syntax for command, adding a prepared argument.
   *
   * @param {Argument} argument
   * @return {Command} `this` command for chaining
   */
  addArgument(argument) {
    const previousArgument = this.registeredArguments.slice(-1)[0];
    if (previousArgument?.variadic) {
      throw new Error(
        `only the last argument can be variadic '${previousArgument.name()}'`,
      );
    }
    if (
      argument.required &&
      argument.defaultValue !== undefined &&
      argument.parseArg === undefined
    ) {
      throw new Error(
        `a default value for a required argument is never used: '${argument.name()}'`,
      );
    }
    this.registeredArguments.push(argument);
    return this;
  }

  /**
   * Customise or override default help command. By default a help command is automatically added if your command has subcommands.
   *
   * @example
   *    program.helpCommand('help [cmd]');
   *    program.helpCommand('help [cmd]', 'show help');
   *    program.helpCommand(false); // suppress default help command
   *    program.helpCommand(true); // add help command even if no subcommands
   *
   * @param {string|boolean} enableOrNameAndArgs - enable with custom name and/or arguments, or boolean to override whether added
   * @param {string} [description] - custom description
   * @return {Command} `this` command for chaining
   */

  helpCommand(enableOrNameAndArgs, description) {
    if (typeof enableOrNameAndArgs === 'boolean') {
      this._addImplicitHelpCommand = enableOrNameAndArgs;
      if (enableOrNameAndArgs && this._defaultCommandGroup) {
        // make the command to store the group
        this._initCommandGroup(this._getHelpCommand());
      }
      return this;
    }

    const nameAndArgs = enableOrNameAndArgs ?? 'help [command]';
    const [, helpName, helpArgs] = nameAndArgs.match(/([^ ]+) *(.*)/);
    const helpDescription = description ?? 'display help for command';

    const helpCommand = this.createCommand(helpName);
    helpCommand.helpOption(false);
    if (helpArgs) helpCommand.arguments(helpArgs);
    if (helpDescription) helpCommand.description(helpDescription);

    this._addImplicitHelpCommand = true;
    this._helpCommand = helpCommand;
    // init group unless lazy create
    if (enableOrNameAndArgs || description) this._initCommandGroup(helpCommand);

    return this;
  }

  /**
   * Add prepared custom help command.
   *
   * @param {(Command|string|boolean)} helpCommand - custom help command, or deprecated enableOrNameAndArgs as for `.helpCommand()`
   * @param {string} [deprecatedDescription] - deprecated custom description used with custom name only
   * @return {Command} `this` command for chaining
   */
  addHelpCommand(helpCommand, deprecatedDescription) {
    // If not passed an object, call through to helpCommand for backwards compatibility,
    // as addHelpCommand was originally used like helpCommand is now.
    if (typeof helpCommand !== 'object') {
      this.helpCommand(helpCommand, deprecatedDescription);
      return this;
    }

    this._addImplicitHelpCommand = true;
    this._helpCommand = helpCommand;
    this._initCommandGroup(helpCommand);
    return this;
  }

  /**
   * Lazy create help command.
   *
   * @return {(Command|null)}
   * @package
   */
  _getHelpCommand() {
    const hasImplicitHelpCommand =
      this._addImplicitHelpCommand ??
      (this.commands.length &&
        !this._actionHandler &&
        !this._findCommand('help'));

    if (hasImplicitHelpCommand) {
      if (this._helpCommand === undefined) {
        this.helpCommand(undefined, undefined); // use default name and description
      }
      return this._helpCommand;
    }
    return null;
  }

  /**
   * Add hook for life cycle event.
   *
   * @param {string} event
   * @param {Function} listener
   * @return {Command} `this` command for chaining
   */

  hook(event, listener) {
    const allowedValues = ['preSubcommand', 'preAction', 'postAction'];
    if (!allowedValues.includes(event)) {
      throw new Error(`Unexpected value for event passed to hook : '${event}'.
Expecting one of '${allowedValues.join("', '")}'`);
    }
    if (this._lifeCycleHooks[event]) {
      this._lifeCycleHooks[event].push(listener);
    } else {
      this._lifeCycleHooks[event] = [listener];
    }
    return this;
  }

  /**
   * Register callback to use as replacement for calling process.exit.
   *
   * @param {Function} [fn] optional callback which will be passed a CommanderError, defaults to throwing
   * @return {Command} `this` command for chaining
   */

  exitOverride(fn) {
    if (fn) {
      this._exitCallback = fn;
    } else {
      this._exitCallback = (err) => {
        if (err.code !== 'commander.executeSubCommandAsync') {
          throw err;
        } else {
          // Async callback from spawn events, not useful to throw.
        }
      };
    }
    return this;
  }

  /**
   * Call process.exit, and _exitCallback if defined.
   *
   * @param {number} exitCode exit code for using with process.exit
   * @param {string} code an id string representing the error
   * @param {string} message human-readable description of the error
   * @return never
   * @private
   */

  _exit(exitCode, code, message) {
    if (this._exitCallback) {
      this._exitCallback(new CommanderError(exitCode, code, message));
      // Expecting this line is not reached.
    }
    process.exit(exitCode);
  }

  /**
   * Register callback `fn` for the command.
   *
   * @example
   * program
   *   .command('serve')
   *   .description('start service')
   *   .action(function() {
   *      // do work here
   *   });
   *
   * @param {Function} fn
   * @return {Command} `this` command for chaining
   */

  action(fn) {
    const listener = (args) => {
      // The .action callback takes an extra parameter which is the command or options.
      const expectedArgsCount = this.registeredArguments.length;
      const actionArgs = args.slice(0, expectedArgsCount);
      if (this._storeOptionsAsProperties) {
        actionArgs[expectedArgsCount] = this; // backwards compatible "options"
      } else {
        actionArgs[expectedArgsCount] = this.opts();
      }
      actionArgs.push(this);

      return fn.apply(this, actionArgs);
    };
    this._actionHandler = listener;
    return this;
  }

  /**
   * Factory routine to create a new unattached option.
   *
   * See .option() for creating an attached option, which uses this routine to
   * create the option. You can override createOption to return a custom option.
   *
   * @param {string} flags
   * @param {string} [description]
   * @return {Option} new option
   */

  createOption(flags, description) {
    return new Option(flags, description);
  }

  /**
   * Wrap parseArgs to catch 'commander.invalidArgument'.
   *
   * @param {(Option | Argument)} target
   * @param {string} value
   * @param {*} previous
   * @param {string} invalidArgumentMessage
   * @private
   */

  _callParseArg(target, value, previous, invalidArgumentMessage) {
    try {
      return target.parseArg(value, previous);
    } catch (err) {
      if (err.code === 'commander.invalidArgument') {
        const message = `${invalidArgumentMessage} ${err.message}`;
        this.error(message, { exitCode: err.exitCode, code: err.code });
      }
      throw err;
    }
  }

  /**
   * Check for option flag conflicts.
   * Register option if no conflicts found, or throw on conflict.
   *
   * @param {Option} option
   * @private
   */

  _registerOption(option) {
    const matchingOption =
      (option.short && this._findOption(option.short)) ||
      (option.long && this._findOption(option.long));
    if (matchingOption) {
      const matchingFlag =
        option.long && this._findOption(option.long)
          ? option.long
          : option.short;
      throw new Error(`Cannot add option '${option.flags}'${this._name && ` to command '${this._name}'`} due to conflicting flag '${matchingFlag}'
-  already used by option '${matchingOption.flags}'`);
    }

    this._initOptionGroup(option);
    this.options.push(option);
  }

  /**
   * Check for command name and alias conflicts with existing commands.
   * Register command if no conflicts found, or throw on conflict.
   *
   * @param {Command} command
   * @private
   */

  _registerCommand(command) {
    const knownBy = (cmd) => {
      return [cmd.name()].concat(cmd.aliases());
    };

    const alreadyUsed = knownBy(command).find((name) =>
      this._findCommand(name),
    );
    if (alreadyUsed) {
      const existingCmd = knownBy(this._findCommand(alreadyUsed)).join('|');
      const newCmd = knownBy(command).join('|');
      throw new Error(
        `cannot add command '${newCmd}' as already have command '${existingCmd}'`,
      );
    }

    this._initCommandGroup(command);
    this.commands.push(command);
  }

  /**
   * Add an option.
   *
   * @param {Option} option
   * @return {Command} `this` command for chaining
   */
  addOption(option) {
    this._registerOption(option);

    const oname = option.name();
    const name = option.attributeName();

    // store default value
    if (option.negate) {
      // --no-foo is special and defaults foo to true, unless a --foo option is already defined
      const positiveLongFlag = option.long.replace(/^--no-/, '--');
      if (!this._findOption(positiveLongFlag)) {
        this.setOptionValueWithSource(
          name,
          option.defaultValue === undefined ? true : option.defaultValue,
          'default',
        );
      }
    } else if (option.defaultValue !== undefined) {
      this.setOptionValueWithSource(name, option.defaultValue, 'default');
    }

    // handler for cli and env supplied values
    const handleOptionValue = (val, invalidValueMessage, valueSource) => {
      // val is null for optional option used without an optional-argument.
      // val is undefined for boolean and negated option.
      if (val == null && option.presetArg !== undefined) {
        val = option.presetArg;
      }

      // custom processing
      const oldValue = this.getOptionValue(name);
      if (val !== null && option.parseArg) {
        val = this._callParseArg(option, val, oldValue, invalidValueMessage);
      } else if (val !== null && option.variadic) {
        val = option._collectValue(val, oldValue);
      }

      // Fill-in appropriate missing values. Long winded but easy to follow.
      if (val == null) {
        if (option.negate) {
          val = false;
        } else if (option.isBoolean() || option.optional) {
          val = true;
        } else {
          val = ''; // not normal, parseArg might have failed or be a mock function for testing
        }
      }
      this.setOptionValueWithSource(name, val, valueSource);
    };

    this.on('option:' + oname, (val) => {
      const invalidValueMessage = `error: option '${option.flags}' argument '${val}' is invalid.`;
      handleOptionValue(val, invalidValueMessage, 'cli');
    });

    if (option.envVar) {
      this.on('optionEnv:' + oname, (val) => {
        const invalidValueMessage = `error: option '${option.flags}' value '${val}' from env '${option.envVar}' is invalid.`;
        handleOptionValue(val, invalidValueMessage, 'env');
      });
    }

    return this;
  }

  /**
   * Internal implementation shared by .option() and .requiredOption()
   *
   * @return {Command} `this` command for chaining
   * @private
   */
  _optionEx(config, flags, description, fn, defaultValue) {
    if (typeof flags === 'object' && flags instanceof Option) {
      throw new Error(
        'To add an Option object use addOption() instead of option() or requiredOption()',
      );
    }
    const option = this.createOption(flags, description);
    option.makeOptionMandatory(!!config.mandatory);
    if (typeof fn === 'function') {
      option.default(defaultValue).argParser(fn);
    } else if (fn instanceof RegExp) {
      // deprecated
      const regex = fn;
      fn = (val, def) => {
        const m = regex.exec(val);
        return m ? m[0] : def;
      };
      option.default(defaultValue).argParser(fn);
    } else {
      option.default(fn);
    }

    return this.addOption(option);
  }

  /**
   * Define option with `flags`, `description`, and optional argument parsing function or `defaultValue` or both.
   *
   * The `flags` string contains the short and/or long flags, separated by comma, a pipe or space. A required
   * option-argument is indicated by `<>` and an optional option-argument by `[]`.
   *
   * See the README for more details, and see also addOption() and requiredOption().
   *
   * @example
   * program
   *     .option('-p, --pepper', 'add pepper')
   *     .option('--pt, --pizza-type <TYPE>', 'type of pizza') // required option-argument
   *     .option('-c, --cheese [CHEESE]', 'add extra cheese', 'mozzarella') // optional option-argument with default
   *     .option('-t, --tip <VALUE>', 'add tip to purchase cost', parseFloat) // custom parse function
   *
   * @param {string} flags
   * @param {string} [description]
   * @param {(Function|*)} [parseArg] - custom option processing function or default value
   * @param {*} [defaultValue]
   * @return {Command} `this` command for chaining
   */

  option(flags, description, parseArg, defaultValue) {
    return this._optionEx({}, flags, description, parseArg, defaultValue);
  }

  /**
   * Add a required option which must have a value after parsing. This usually means
   * the option must be specified on the command line. (Otherwise the same as .option().)
   *
   * The `flags` string contains the short and/or long flags, separated by comma, a pipe or space.
   *
   * @param {string} flags
   * @param {string} [description]
   * @param {(Function|*)} [parseArg] - custom option processing function or default value
   * @param {*} [defaultValue]
   * @return {Command} `this` command for chaining
   */

  requiredOption(flags, description, parseArg, defaultValue) {
    return this._optionEx(
      { mandatory: true },
      flags,
      description,
      parseArg,
      defaultValue,
    );
  }

  /**
   * Alter parsing of short flags with optional values.
   *
   * @example
   * // for `.option('-f,--flag [value]'):
   * program.combineFlagAndOptionalValue(true);  // `-f80` is treated like `--flag=80`, this is the default behaviour
   * program.combineFlagAndOptionalValue(false) // `-fb` is treated like `-f -b`
   *
   * @param {boolean} [combine] - if `true` or omitted, an optional value can be specified directly after the flag.
   * @return {Command} `this` command for chaining
   */
  combineFlagAndOptionalValue(combine = true) {
    this._combineFlagAndOptionalValue = !!combine;
    return this;
  }

  /**
   * Allow unknown options on the command line.
   *
   * @param {boolean} [allowUnknown] - if `true` or omitted, no error will be thrown for unknown options.
   * @return {Command} `this` command for chaining
   */
  allowUnknownOption(allowUnknown = true) {
    this._allowUnknownOption = !!allowUnknown;
    return this;
  }

  /**
   * Allow excess command-arguments on the command line. Pass false to make excess arguments an error.
   *
   * @param {boolean} [allowExcess] - if `true` or omitted, no error will be thrown for excess arguments.
   * @return {Command} `this` command for chaining
   */
  allowExcessArguments(allowExcess = true) {
    this._allowExcessArguments = !!allowExcess;
    return this;
  }

  /**
   * Enable positional options. Positional means global options are specified before subcommands which lets
   * subcommands reuse the same option names, and also enables subcommands to turn on passThroughOptions.
   * The default behaviour is non-positional and global options may appear anywhere on the command line.
   *
   * @param {boolean} [positional]
   * @return {Command} `this` command for chaining
   */
  enablePositionalOptions(positional = true) {
    this._enablePositionalOptions = !!positional;
    return this;
  }

  /**
   * Pass through options that come after command-arguments rather than treat them as command-options,
   * so actual command-options come before command-arguments. Turning this on for a subcommand requires
   * positional options to have been enabled on the program (parent commands).
   * The default behaviour is non-positional and options may appear before or after command-arguments.
   *
   * @param {boolean} [passThrough] for unknown options.
   * @return {Command} `this` command for chaining
   */
  passThroughOptions(passThrough = true) {
    this._passThroughOptions = !!passThrough;
    this._checkForBrokenPassThrough();
    return this;
  }

  /**
   * @private
   */

  _checkForBrokenPassThrough() {
    if (
      this.parent &&
      this._passThroughOptions &&
      !this.parent._enablePositionalOptions
    ) {
      throw new Error(
        `passThroughOptions cannot be used for '${this._name}' without turning on enablePositionalOptions for parent command(s)`,
      );
    }
  }

  /**
   * Whether to store option values as properties on command object,
   * or store separately (specify false). In both cases the option values can be accessed using .opts().
   *
   * @param {boolean} [storeAsProperties=true]
   * @return {Command} `this` command for chaining
   */

  storeOptionsAsProperties(storeAsProperties = true) {
    if (this.options.length) {
      throw new Error('call .storeOptionsAsProperties() before adding options');
    }
    if (Object.keys(this._optionValues).length) {
      throw new Error(
        'call .storeOptionsAsProperties() before setting option values',
      );
    }
    this._storeOptionsAsProperties = !!storeAsProperties;
    return this;
  }

  /**
   * Retrieve option value.
   *
   * @param {string} key
   * @return {object} value
   */

  getOptionValue(key) {
    if (this._storeOptionsAsProperties) {
      return this[key];
    }
    return this._optionValues[key];
  }

  /**
   * Store option value.
   *
   * @param {string} key
   * @param {object} value
   * @return {Command} `this` command for chaining
   */

  setOptionValue(key, value) {
    return this.setOptionValueWithSource(key, value, undefined);
  }

  /**
   * Store option value and where the value came from.
   *
   * @param {string} key
   * @param {object} value
   * @param {string} source - expected values are default/config/env/cli/implied
   * @return {Command} `this` command for chaining
   */

  setOptionValueWithSource(key, value, source) {
    if (this._storeOptionsAsProperties) {
      this[key] = value;
    } else {
      this._optionValues[key] = value;
    }
    this._optionValueSources[key] = source;
    return this;
  }

  /**
   * Get source of option value.
   * Expected values are default | config | env | cli | implied
   *
   * @param {string} key
   * @return {string}
   */

  getOptionValueSource(key) {
    return this._optionValueSources[key];
  }

  /**
   * Get source of option value. See also .optsWithGlobals().
   * Expected values are default | config | env | cli | implied
   *
   * @param {string} key
   * @return {string}
   */

  getOptionValueSourceWithGlobals(key) {
    // global overwrites local, like optsWithGlobals
    let source;
    this._getCommandAndAncestors().forEach((cmd) => {
      if (cmd.getOptionValueSource(key) !== undefined) {
        source = cmd.getOptionValueSource(key);
      }
    });
    return source;
  }

  /**
   * Get user arguments from implied or explicit arguments.
   * Side-effects: set _scriptPath if args included script. Used for default program name, and subcommand searches.
   *
   * @private
   */

  _prepareUserArgs(argv, parseOptions) {
    if (argv !== undefined && !Array.isArray(argv)) {
      throw new Error('first parameter to parse must be array or undefined');
    }
    parseOptions = parseOptions || {};

    // auto-detect argument conventions if nothing supplied
    if (argv === undefined && parseOptions.from === undefined) {
      if (process.versions?.electron) {
        parseOptions.from = 'electron';
      }
      // check node specific options for scenarios where user CLI args follow executable without scriptname
      const execArgv = process.execArgv ?? [];
      if (
        execArgv.includes('-e') ||
        execArgv.includes('--eval') ||
        execArgv.includes('-p') ||
        execArgv.includes('--print')
      ) {
        parseOptions.from = 'eval'; // internal usage, not documented
      }
    }

    // default to using process.argv
    if (argv === undefined) {
      argv = process.argv;
    }
    this.rawArgs = argv.slice();

    // extract the user args and scriptPath
    let userArgs;
    switch (parseOptions.from) {
      case undefined:
      case 'node':
        this._scriptPath = argv[1];
        userArgs = argv.slice(2);
        break;
      case 'electron':
        // @ts-ignore: because defaultApp is an unknown property
        if (process.defaultApp) {
          this._scriptPath = argv[1];
          userArgs = argv.slice(2);
        } else {
          userArgs = argv.slice(1);
        }
        break;
      case 'user':
        userArgs = argv.slice(0);
        break;
      case 'eval':
        userArgs = argv.slice(1);
        break;
      default:
        throw new Error(
          `unexpected parse option { from: '${parseOptions.from}' }`,
        );
    }

    // Find default name for program from arguments.
    if (!this._name && this._scriptPath)
      this.nameFromFilename(this._scriptPath);
    this._name = this._name || 'program';

    return userArgs;
  }

  /**
   * Parse `argv`, setting options and invoking commands when defined.
   *
   * Use parseAsync instead of parse if any of your action handlers are async.
   *
   * Call with no parameters to parse `process.argv`. Detects Electron and special node options like `node --eval`. Easy mode!
   *
   * Or call with an array of strings to parse, and optionally where the user arguments start by specifying where the arguments are `from`:
   * - `'node'`: default, `argv[0]` is the application and `argv[1]` is the script being run, with user arguments after that
   * - `'electron'`: `argv[0]` is the application and `argv[1]` varies depending on whether the electron application is packaged
   * - `'user'`: just user arguments
   *
   * @example
   * program.parse(); // parse process.argv and auto-detect electron and special node flags
   * program.parse(process.argv); // assume argv[0] is app and argv[1] is script
   * program.parse(my-args, { from: 'user' }); // just user supplied arguments, nothing special about argv[0]
   *
   * @param {string[]} [argv] - optional, defaults to process.argv
   * @param {object} [parseOptions] - optionally specify style of options with from: node/user/electron
   * @param {string} [parseOptions.from] - where the args are from: 'node', 'user', 'electron'
   * @return {Command} `this` command for chaining
   */

  parse(argv, parseOptions) {
    this._prepareForParse();
    const userArgs = this._prepareUserArgs(argv, parseOptions);
    this._parseCommand([], userArgs);

    return this;
  }

  /**
   * Parse `argv`, setting options and invoking commands when defined.
   *
   * Call with no parameters to parse `process.argv`. Detects Electron and special node options like `node --eval`. Easy mode!
   *
   * Or call with an array of strings to parse, and optionally where the user arguments start by specifying where the arguments are `from`:
   * - `'node'`: default, `argv[0]` is the application and `argv[1]` is the script being run, with user arguments after that
   * - `'electron'`: `argv[0]` is the application and `argv[1]` varies depending on whether the electron application is packaged
   * - `'user'`: just user arguments
   *
   * @example
   * await program.parseAsync(); // parse process.argv and auto-detect electron and special node flags
   * await program.parseAsync(process.argv); // assume argv[0] is app and argv[1] is script
   * await program.parseAsync(my-args, { from: 'user' }); // just user supplied arguments, nothing special about argv[0]
   *
   * @param {string[]} [argv]
   * @param {object} [parseOptions]
   * @param {string} parseOptions.from - where the args are from: 'node', 'user', 'electron'
   * @return {Promise}
   */

  async parseAsync(argv, parseOptions) {
    this._prepareForParse();
    const userArgs = this._prepareUserArgs(argv, parseOptions);
    await this._parseCommand([], userArgs);

    return this;
  }

  _prepareForParse() {
    if (this._savedState === null) {
      this.saveStateBeforeParse();
    } else {
      this.restoreStateBeforeParse();
    }
  }

  /**
   * Called the first time parse is called to save state and allow a restore before subsequent calls to parse.
   * Not usually called directly, but available for subclasses to save their custom state.
   *
   * This is called in a lazy way. Only commands used in parsing chain will have state saved.
   */
  saveStateBeforeParse() {
    this._savedState = {
      // name is stable if supplied by author, but may be unspecified for root command and deduced during parsing
      _name: this._name,
      // option values before parse have default values (including false for negated options)
      // shallow clones
      _optionValues: { ...this._optionValues },
      _optionValueSources: { ...this._optionValueSources },
    };
  }

  /**
   * Restore state before parse for calls after the first.
   * Not usually called directly, but available for subclasses to save their custom state.
   *
   * This is called in a lazy way. Only commands used in parsing chain will have state restored.
   */
  restoreStateBeforeParse() {
    if (this._storeOptionsAsProperties)
      throw new Error(`Can not call parse again when storeOptionsAsProperties is true.
- either make a new Command for each call to parse, or stop storing options as properties`);

    // clear state from _prepareUserArgs
    this._name = this._savedState._name;
    this._scriptPath = null;
    this.rawArgs = [];
    // clear state from setOptionValueWithSource
    this._optionValues = { ...this._savedState._optionValues };
    this._optionValueSources = { ...this._savedState._optionValueSources };
    // clear state from _parseCommand
    this.args = [];
    // clear state from _processArguments
    this.processedArgs = [];
  }

  /**
   * Throw if expected executable is missing. Add lots of help for author.
   *
   * @param {string} executableFile
   * @param {string} executableDir
   * @param {string} subcommandName
   */
  _checkForMissingExecutable(executableFile, executableDir, subcommandName) {
    if (fs.existsSync(executableFile)) return;

    const executableDirMessage = executableDir
      ? `searched for local subcommand relative to directory '${executableDir}'`
      : 'no directory for search for local subcommand, use .executableDir() to supply a custom directory';
    const executableMissing = `'${executableFile}' does not exist
 - if '${subcommandName}' is not meant to be an executable command, remove description parameter from '.command()' and use '.description()' instead
 - if the default executable name is not suitable, use the executableFile option to supply a custom name or path
 - ${executableDirMessage}`;
    throw new Error(executableMissing);
  }

  /**
   * Execute a sub-command executable.
   *
   * @private
   */

  _executeSubCommand(subcommand, args) {
    args = args.slice();
    let launchWithNode = false; // Use node for source targets so do not need to get permissions correct, and on Windows.
    const sourceExt = ['.js', '.ts', '.tsx', '.mjs', '.cjs'];

    function findFile(baseDir, baseName) {
      // Look for specified file
      const localBin = path.resolve(baseDir, baseName);
      if (fs.existsSync(localBin)) return localBin;

      // Stop looking if candidate already has an expected extension.
      if (sourceExt.includes(path.extname(baseName))) return undefined;

      // Try all the extensions.
      const foundExt = sourceExt.find((ext) =>
        fs.existsSync(`${localBin}${ext}`),
      );
      if (foundExt) return `${localBin}${foundExt}`;

      return undefined;
    }

    // Not checking for help first. Unlikely to have mandatory and executable, and can't robustly test for help flags in external command.
    this._checkForMissingMandatoryOptions();
    this._checkForConflictingOptions();

    // executableFile and executableDir might be full path, or just a name
    let executableFile =
      subcommand._executableFile || `${this._name}-${subcommand._name}`;
    let executableDir = this._executableDir || '';
    if (this._scriptPath) {
      let resolvedScriptPath; // resolve possible symlink for installed npm binary
      try {
        resolvedScriptPath = fs.realpathSync(this._scriptPath);
      } catch {
        resolvedScriptPath = this._scriptPath;
      }
      executableDir = path.resolve(
        path.dirname(resolvedScriptPath),
        executableDir,
      );
    }

    // Look for a local file in preference to a command in PATH.
    if (executableDir) {
      let localFile = findFile(executableDir, executableFile);

      // Legacy search using prefix of script name instead of command name
      if (!localFile && !subcommand._executableFile && this._scriptPath) {
        const legacyName = path.basename(
          this._scriptPath,
          path.extname(this._scriptPath),
        );
        if (legacyName !== this._name) {
          localFile = findFile(
            executableDir,
            `${legacyName}-${subcommand._name}`,
          );
        }
      }
      executableFile = localFile || executableFile;
    }

    launchWithNode = sourceExt.includes(path.extname(executableFile));

    let proc;
    if (process.platform !== 'win32') {
      if (launchWithNode) {
        args.unshift(executableFile);
        // add executable arguments to spawn
        args = incrementNodeInspectorPort(process.execArgv).concat(args);

        proc = childProcess.spawn(process.argv[0], args, { stdio: 'inherit' });
      } else {
        proc = childProcess.spawn(executableFile, args, { stdio: 'inherit' });
      }
    } else {
      this._checkForMissingExecutable(
        executableFile,
        executableDir,
        subcommand._name,
      );
      args.unshift(executableFile);
      // add executable arguments to spawn
      args = incrementNodeInspectorPort(process.execArgv).concat(args);
      proc = childProcess.spawn(process.execPath, args, { stdio: 'inherit' });
    }

    if (!proc.killed) {
      // testing mainly to avoid leak warnings during unit tests with mocked spawn
      const signals = ['SIGUSR1', 'SIGUSR2', 'SIGTERM', 'SIGINT', 'SIGHUP'];
      signals.forEach((signal) => {
        process.on(signal, () => {
          if (proc.killed === false && proc.exitCode === null) {
            // @ts-ignore because signals not typed to known strings
            proc.kill(signal);
          }
        });
      });
    }

    // By default terminate process when spawned process terminates.
    const exitCallback = this._exitCallback;
    proc.on('close', (code) => {
      code = code ?? 1; // code is null if spawned process terminated due to a signal
      if (!exitCallback) {
        process.exit(code);
      } else {
        exitCallback(
          new CommanderError(
            code,
            'commander.executeSubCommandAsync',
            '(close)',
          ),
        );
      }
    });
    proc.on('error', (err) => {
      // @ts-ignore: because err.code is an unknown property
      if (err.code === 'ENOENT') {
        this._checkForMissingExecutable(
          executableFile,
          executableDir,
          subcommand._name,
        );
        // @ts-ignore: because err.code is an unknown property
      } else if (err.code === 'EACCES') {
        throw new Error(`'${executableFile}' not executable`);
      }
      if (!exitCallback) {
        process.exit(1);
      } else {
        const wrappedError = new CommanderError(
          1,
          'commander.executeSubCommandAsync',
          '(error)',
        );
        wrappedError.nestedError = err;
        exitCallback(wrappedError);
      }
    });

    // Store the reference to the child process
    this.runningCommand = proc;
  }

  /**
   * @private
   */

  _dispatchSubcommand(commandName, operands, unknown) {
    const subCommand = this._findCommand(commandName);
    if (!subCommand) this.help({ error: true });

    subCommand._prepareForParse();
    let promiseChain;
    promiseChain = this._chainOrCallSubCommandHook(
      promiseChain,
      subCommand,
      'preSubcommand',
    );
    promiseChain = this._chainOrCall(promiseChain, () => {
      if (subCommand._executableHandler) {
        this._executeSubCommand(subCommand, operands.concat(unknown));
      } else {
        return subCommand._parseCommand(operands, unknown);
      }
    });
    return promiseChain;
  }

  /**
   * Invoke help directly if possible, or dispatch if necessary.
   * e.g. help foo
   *
   * @private
   */

  _dispatchHelpCommand(subcommandName) {
    if (!subcommandName) {
      this.help();
    }
    const subCommand = this._findCommand(subcommandName);
    if (subCommand && !subCommand._executableHandler) {
      subCommand.help();
    }

    // Fallback to parsing the help flag to invoke the help.
    return this._dispatchSubcommand(
      subcommandName,
      [],
      [this._getHelpOption()?.long ?? this._getHelpOption()?.short ?? '--help'],
    );
  }

  /**
   * Check this.args against expected this.registeredArguments.
   *
   * @private
   */

  _checkNumberOfArguments() {
    // too few
    this.registeredArguments.forEach((arg, i) => {
      if (arg.required && this.args[i] == null) {
        this.missingArgument(arg.name());
      }
    });
    // too many
    if (
      this.registeredArguments.length > 0 &&
      this.registeredArguments[this.registeredArguments.length - 1].variadic
    ) {
      return;
    }
    if (this.args.length > this.registeredArguments.length) {
      this._excessArguments(this.args);
    }
  }

  /**
   * Process this.args using this.registeredArguments and save as this.processedArgs!
   *
   * @private
   */

  _processArguments() {
    const myParseArg = (argument, value, previous) => {
      // Extra processing for nice error message on parsing failure.
      let parsedValue = value;
      if (value !== null && argument.parseArg) {
        const invalidValueMessage = `error: command-argument value '${value}' is invalid for argument '${argument.name()}'.`;
        parsedValue = this._callParseArg(
          argument,
          value,
          previous,
          invalidValueMessage,
        );
      }
      return parsedValue;
    };

    this._checkNumberOfArguments();

    const processedArgs = [];
    this.registeredArguments.forEach((declaredArg, index) => {
      let value = declaredArg.defaultValue;
      if (declaredArg.variadic) {
        // Collect together remaining arguments for passing together as an array.
        if (index < this.args.length) {
          value = this.args.slice(index);
          if (declaredArg.parseArg) {
            value = value.reduce((processed, v) => {
              return myParseArg(declaredArg, v, processed);
            }, declaredArg.defaultValue);
          }
        } else if (value === undefined) {
          value = [];
        }
      } else if (index < this.args.length) {
        value = this.args[index];
        if (declaredArg.parseArg) {
          value = myParseArg(declaredArg, value, declaredArg.defaultValue);
        }
      }
      processedArgs[index] = value;
    });
    this.processedArgs = processedArgs;
  }

  /**
   * Once we have a promise we chain, but call synchronously until then.
   *
   * @param {(Promise|undefined)} promise
   * @param {Function} fn
   * @return {(Promise|undefined)}
   * @private
   */

  _chainOrCall(promise, fn) {
    // thenable
    if (promise?.then && typeof promise.then === 'function') {
      // already have a promise, chain callback
      return promise.then(() => fn());
    }
    // callback might return a promise
    return fn();
  }

  /**
   *
   * @param {(Promise|undefined)} promise
   * @param {string} event
   * @return {(Promise|undefined)}
   * @private
   */

  _chainOrCallHooks(promise, event) {
    let result = promise;
    const hooks = [];
    this._getCommandAndAncestors()
      .reverse()
      .filter((cmd) => cmd._lifeCycleHooks[event] !== undefined)
      .forEach((hookedCommand) => {
        hookedCommand._lifeCycleHooks[event].forEach((callback) => {
          hooks.push({ hookedCommand, callback });
        });
      });
    if (event === 'postAction') {
      hooks.reverse();
    }

    hooks.forEach((hookDetail) => {
      result = this._chainOrCall(result, () => {
        return hookDetail.callback(hookDetail.hookedCommand, this);
      });
    });
    return result;
  }

  /**
   *
   * @param {(Promise|undefined)} promise
   * @param {Command} subCommand
   * @param {string} event
   * @return {(Promise|undefined)}
   * @private
   */

  _chainOrCallSubCommandHook(promise, subCommand, event) {
    let result = promise;
    if (this._lifeCycleHooks[event] !== undefined) {
      this._lifeCycleHooks[event].forEach((hook) => {
        result = this._chainOrCall(result, () => {
          return hook(this, subCommand);
        });
      });
    }
    return result;
  }

  /**
   * Process arguments in context of this command.
   * Returns action result, in case it is a promise.
   *
   * @private
   */

  _parseCommand(operands, unknown) {
    const parsed = this.parseOptions(unknown);
    this._parseOptionsEnv(); // after cli, so parseArg not called on both cli and env
    this._parseOptionsImplied();
    operands = operands.concat(parsed.operands);
    unknown = parsed.unknown;
    this.args = operands.concat(unknown);

    if (operands && this._findCommand(operands[0])) {
      return this._dispatchSubcommand(operands[0], operands.slice(1), unknown);
    }
    if (
      this._getHelpCommand() &&
      operands[0] === this._getHelpCommand().name()
    ) {
      return this._dispatchHelpCommand(operands[1]);
    }
    if (this._defaultCommandName) {
      this._outputHelpIfRequested(unknown); // Run the help for default command from parent rather than passing to default command
      return this._dispatchSubcommand(
        this._defaultCommandName,
        operands,
        unknown,
      );
    }
    if (
      this.commands.length &&
      this.args.length === 0 &&
      !this._actionHandler &&
      !this._defaultCommandName
    ) {
      // probably missing subcommand and no handler, user needs help (and exit)
      this.help({ error: true });
    }

    this._outputHelpIfRequested(parsed.unknown);
    this._checkForMissingMandatoryOptions();
    this._checkForConflictingOptions();

    // We do not always call this check to avoid masking a "better" error, like unknown command.
    const checkForUnknownOptions = () => {
      if (parsed.unknown.length > 0) {
        this.unknownOption(parsed.unknown[0]);
      }
    };

    const commandEvent = `command:${this.name()}`;
    if (this._actionHandler) {
      checkForUnknownOptions();
      this._processArguments();

      let promiseChain;
      promiseChain = this._chainOrCallHooks(promiseChain, 'preAction');
      promiseChain = this._chainOrCall(promiseChain, () =>
        this._actionHandler(this.processedArgs),
      );
      if (this.parent) {
        promiseChain = this._chainOrCall(promiseChain, () => {
          this.parent.emit(commandEvent, operands, unknown); // legacy
        });
      }
      promiseChain = this._chainOrCallHooks(promiseChain, 'postAction');
      return promiseChain;
    }
    if (this.parent?.listenerCount(commandEvent)) {
      checkForUnknownOptions();
      this._processArguments();
      this.parent.emit(commandEvent, operands, unknown); // legacy
    } else if (operands.length) {
      if (this._findCommand('*')) {
        // legacy default command
        return this._dispatchSubcommand('*', operands, unknown);
      }
      if (this.listenerCount('command:*')) {
        // skip option check, emit event for possible misspelling suggestion
        this.emit('command:*', operands, unknown);
      } else if (this.commands.length) {
        this.unknownCommand();
      } else {
        checkForUnknownOptions();
        this._processArguments();
      }
    } else if (this.commands.length) {
      checkForUnknownOptions();
      // This command has subcommands and nothing hooked up at this level, so display help (and exit).
      this.help({ error: true });
    } else {
      checkForUnknownOptions();
      this._processArguments();
      // fall through for caller to handle after calling .parse()
    }
  }

  /**
   * Find matching command.
   *
   * @private
   * @return {Command | undefined}
   */
  _findCommand(name) {
    if (!name) return undefined;
    return this.commands.find(
      (cmd) => cmd._name === name || cmd._aliases.includes(name),
    );
  }

  /**
   * Return an option matching `arg` if any.
   *
   * @param {string} arg
   * @return {Option}
   * @package
   */

  _findOption(arg) {
    return this.options.find((option) => option.is(arg));
  }

  /**
   * Display an error message if a mandatory option does not have a value.
   * Called after checking for help flags in leaf subcommand.
   *
   * @private
   */

  _checkForMissingMandatoryOptions() {
    // Walk up hierarchy so can call in subcommand after checking for displaying help.
    this._getCommandAndAncestors().forEach((cmd) => {
      cmd.options.forEach((anOption) => {
        if (
          anOption.mandatory &&
          cmd.getOptionValue(anOption.attributeName()) === undefined
        ) {
          cmd.missingMandatoryOptionValue(anOption);
        }
      });
    });
  }

  /**
   * Display an error message if conflicting options are used together in this.
   *
   * @private
   */
  _checkForConflictingLocalOptions() {
    const definedNonDefaultOptions = this.options.filter((option) => {
      const optionKey = option.attributeName();
      if (this.getOptionValue(optionKey) === undefined) {
        return false;
      }
      return this.getOptionValueSource(optionKey) !== 'default';
    });

    const optionsWithConflicting = definedNonDefaultOptions.filter(
      (option) => option.conflictsWith.length > 0,
    );

    optionsWithConflicting.forEach((option) => {
      const conflictingAndDefined = definedNonDefaultOptions.find((defined) =>
        option.conflictsWith.includes(defined.attributeName()),
      );
      if (conflictingAndDefined) {
        this._conflictingOption(option, conflictingAndDefined);
      }
    });
  }

  /**
   * Display an error message if conflicting options are used together.
   * Called after checking for help flags in leaf subcommand.
   *
   * @private
   */
  _checkForConflictingOptions() {
    // Walk up hierarchy so can call in subcommand after checking for displaying help.
    this._getCommandAndAncestors().forEach((cmd) => {
      cmd._checkForConflictingLocalOptions();
    });
  }

  /**
   * Parse options from `argv` removing known options,
   * and return argv split into operands and unknown arguments.
   *
   * Side effects: modifies command by storing options. Does not reset state if called again.
   *
   * Examples:
   *
   *     argv => operands, unknown
   *     --known kkk op => [op], []
   *     op --known kkk => [op], []
   *     sub --unknown uuu op => [sub], [--unknown uuu op]
   *     sub -- --unknown uuu op => [sub --unknown uuu op], []
   *
   * @param {string[]} args
   * @return {{operands: string[], unknown: string[]}}
   */

  parseOptions(args) {
    const operands = []; // operands, not options or values
    const unknown = []; // first unknown option and remaining unknown args
    let dest = operands;

    function maybeOption(arg) {
      return arg.length > 1 && arg[0] === '-';
    }

    const negativeNumberArg = (arg) => {
      // return false if not a negative number
      if (!/^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/.test(arg)) return false;
      // negative number is ok unless digit used as an option in command hierarchy
      return !this._getCommandAndAncestors().some((cmd) =>
        cmd.options
          .map((opt) => opt.short)
          .some((short) => /^-\d$/.test(short)),
      );
    };

    // parse options
    let activeVariadicOption = null;
    let activeGroup = null; // working through group of short options, like -abc
    let i = 0;
    while (i < args.length || activeGroup) {
      const arg = activeGroup ?? args[i++];
      activeGroup = null;

      // literal
      if (arg === '--') {
        if (dest === unknown) dest.push(arg);
        dest.push(...args.slice(i));
        break;
      }

      if (
        activeVariadicOption &&
        (!maybeOption(arg) || negativeNumberArg(arg))
      ) {
        this.emit(`option:${activeVariadicOption.name()}`, arg);
        continue;
      }
      activeVariadicOption = null;

      if (maybeOption(arg)) {
        const option = this._findOption(arg);
        // recognised option, call listener to assign value with possible custom processing
        if (option) {
          if (option.required) {
            const value = args[i++];
            if (value === undefined) this.optionMissingArgument(option);
            this.emit(`option:${option.name()}`, value);
          } else if (option.optional) {
            let value = null;
            // historical behaviour is optional value is following arg unless an option
            if (
              i < args.length &&
              (!maybeOption(args[i]) || negativeNumberArg(args[i]))
            ) {
              value = args[i++];
            }
            this.emit(`option:${option.name()}`, value);
          } else {
            // boolean flag
            this.emit(`option:${option.name()}`);
          }
          activeVariadicOption = option.variadic ? option : null;
          continue;
        }
      }

      // Look for combo options following single dash, eat first one if known.
      if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
        const option = this._findOption(`-${arg[1]}`);
        if (option) {
          if (
            option.required ||
            (option.optional && this._combineFlagAndOptionalValue)
          ) {
            // option with value following in same argument
            this.emit(`option:${option.name()}`, arg.slice(2));
          } else {
            // boolean option
            this.emit(`option:${option.name()}`);
            // remove the processed option and keep processing group
            activeGroup = `-${arg.slice(2)}`;
          }
          continue;
        }
      }

      // Look for known long flag with value, like --foo=bar
      if (/^--[^=]+=/.test(arg)) {
        const index = arg.indexOf('=');
        const option = this._findOption(arg.slice(0, index));
        if (option && (option.required || option.optional)) {
          this.emit(`option:${option.name()}`, arg.slice(index + 1));
          continue;
        }
      }

      // Not a recognised option by this command.
      // Might be a command-argument, or subcommand option, or unknown option, or help command or option.

      // An unknown option means further arguments also classified as unknown so can be reprocessed by subcommands.
      // A negative number in a leaf command is not an unknown option.
      if (
        dest === operands &&
        maybeOption(arg) &&
        !(this.commands.length === 0 && negativeNumberArg(arg))
      ) {
        dest = unknown;
      }

      // If using positionalOptions, stop processing our options at subcommand.
      if (
        (this._enablePositionalOptions || this._passThroughOptions) &&
        operands.length === 0 &&
        unknown.length === 0
      ) {
        if (this._findCommand(arg)) {
          operands.push(arg);
          unknown.push(...args.slice(i));
          break;
        } else if (
          this._getHelpCommand() &&
          arg === this._getHelpCommand().name()
        ) {
          operands.push(arg, ...args.slice(i));
          break;
        } else if (this._defaultCommandName) {
          unknown.push(arg, ...args.slice(i));
          break;
        }
      }

      // If using passThroughOptions, stop processing options at first command-argument.
      if (this._passThroughOptions) {
        dest.push(arg, ...args.slice(i));
        break;
      }

      // add arg
      dest.push(arg);
    }

    return { operands, unknown };
  }

  /**
   * Return an object containing local option values as key-value pairs.
   *
   * @return {object}
   */
  opts() {
    if (this._storeOptionsAsProperties) {
      // Preserve original behaviour so backwards compatible when still using properties
      const result = {};
      const len = this.options.length;

      for (let i = 0; i < len; i++) {
        const key = this.options[i].attributeName();
        result[key] =
          key === this._versionOptionName ? this._version : this[key];
      }
      return result;
    }

    return this._optionValues;
  }

  /**
   * Return an object containing merged local and global option values as key-value pairs.
   *
   * @return {object}
   */
  optsWithGlobals() {
    // globals overwrite locals
    return this._getCommandAndAncestors().reduce(
      (combinedOptions, cmd) => Object.assign(combinedOptions, cmd.opts()),
      {},
    );
  }

  /**
   * Display error message and exit (or call exitOverride).
   *
   * @param {string} message
   * @param {object} [errorOptions]
   * @param {string} [errorOptions.code] - an id string representing the error
   * @param {number} [errorOptions.exitCode] - used with process.exit
   */
  error(message, errorOptions) {
    // output handling
    this._outputConfiguration.outputError(
      `${message}\n`,
      this._outputConfiguration.writeErr,
    );
    if (typeof this._showHelpAfterError === 'string') {
      this._outputConfiguration.writeErr(`${this._showHelpAfterError}\n`);
    } else if (this._showHelpAfterError) {
      this._outputConfiguration.writeErr('\n');
      this.outputHelp({ error: true });
    }

    // exit handling
    const config = errorOptions || {};
    const exitCode = config.exitCode || 1;
    const code = config.code || 'commander.error';
    this._exit(exitCode, code, message);
  }

  /**
   * Apply any option related environment variables, if option does
   * not have a value from cli or client code.
   *
   * @private
   */
  _parseOptionsEnv() {
    this.options.forEach((option) => {
      if (option.envVar && option.envVar in process.env) {
        const optionKey = option.attributeName();
        // Priority check. Do not overwrite cli or options from unknown source (client-code).
        if (
          this.getOptionValue(optionKey) === undefined ||
          ['default', 'config', 'env'].includes(
            this.getOptionValueSource(optionKey),
          )
        ) {
          if (option.required || option.optional) {
            // option can take a value
            // keep very simple, optional always takes value
            this.emit(`optionEnv:${option.name()}`, process.env[option.envVar]);
          } else {
            // boolean
            // keep very simple, only care that envVar defined and not the value
            this.emit(`optionEnv:${option.name()}`);
          }
        }
      }
    });
  }

  /**
   * Apply any implied option values, if option is undefined or default value.
   *
   * @private
   */
  _parseOptionsImplied() {
    const dualHelper = new DualOptions(this.options);
    const hasCustomOptionValue = (optionKey) => {
      return (
        this.getOptionValue(optionKey) !== undefined &&
        !['default', 'implied'].includes(this.getOptionValueSource(optionKey))
      );
    };
    this.options
      .filter(
        (option) =>
          option.implied !== undefined &&
          hasCustomOptionValue(option.attributeName()) &&
          dualHelper.valueFromOption(
            this.getOptionValue(option.attributeName()),
            option,
          ),
      )
      .forEach((option) => {
        Object.keys(option.implied)
          .filter((impliedKey) => !hasCustomOptionValue(impliedKey))
          .forEach((impliedKey) => {
            this.setOptionValueWithSource(
              impliedKey,
              option.implied[impliedKey],
              'implied',
            );
          });
      });
  }

  /**
   * Argument `name` is missing.
   *
   * @param {string} name
   * @private
   */

  missingArgument(name) {
    const message = `error: missing required argument '${name}'`;
    this.error(message, { code: 'commander.missingArgument' });
  }

  /**
   * `Option` is missing an argument.
   *
   * @param {Option} option
   * @private
   */

  optionMissingArgument(option) {
    const message = `error: option '${option.flags}' argument missing`;
    this.error(message, { code: 'commander.optionMissingArgument' });
  }

  /**
   * `Option` does not have a value, and is a mandatory option.
   *
   * @param {Option} option
   * @private
   */

  missingMandatoryOptionValue(option) {
    const message = `error: required option '${option.flags}' not specified`;
    this.error(message, { code: 'commander.missingMandatoryOptionValue' });
  }

  /**
   * `Option` conflicts with another option.
   *
   * @param {Option} option
   * @param {Option} conflictingOption
   * @private
   */
  _conflictingOption(option, conflictingOption) {
    // The calling code does not know whether a negated option is the source of the
    // value, so do some work to take an educated guess.
    const findBestOptionFromValue = (option) => {
      const optionKey = option.attributeName();
      const optionValue = this.getOptionValue(optionKey);
      const negativeOption = this.options.find(
        (target) => target.negate && optionKey === target.attributeName(),
      );
      const positiveOption = this.options.find(
        (target) => !target.negate && optionKey === target.attributeName(),
      );
      if (
        negativeOption &&
        ((negativeOption.presetArg === undefined && optionValue === false) ||
          (negativeOption.presetArg !== undefined &&
            optionValue === negativeOption.presetArg))
      ) {
        return negativeOption;
      }
      return positiveOption || option;
    };

    const getErrorMessage = (option) => {
      const bestOption = findBestOptionFromValue(option);
      const optionKey = bestOption.attributeName();
      const source = this.getOptionValueSource(optionKey);
      if (source === 'env') {
        return `environment variable '${bestOption.envVar}'`;
      }
      return `option '${bestOption.flags}'`;
    };

    const message = `error: ${getErrorMessage(option)} cannot be used with ${getErrorMessage(conflictingOption)}`;
    this.error(message, { code: 'commander.conflictingOption' });
  }

  /**
   * Unknown option `flag`.
   *
   * @param {string} flag
   * @private
   */

  unknownOption(flag) {
    if (this._allowUnknownOption) return;
    let suggestion = '';

    if (flag.startsWith('--') && this._showSuggestionAfterError) {
      // Looping to pick up the global options too
      let candidateFlags = [];
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      let command = this;
      do {
        const moreFlags = command
          .createHelp()
          .visibleOptions(command)
          .filter((option) => option.long)
          .map((option) => option.long);
        candidateFlags = candidateFlags.concat(moreFlags);
        command = command.parent;
      } while (command && !command._enablePositionalOptions);
      suggestion = suggestSimilar(flag, candidateFlags);
    }

    const message = `error: unknown option '${flag}'${suggestion}`;
    this.error(message, { code: 'commander.unknownOption' });
  }

  /**
   * Excess arguments, more than expected.
   *
   * @param {string[]} receivedArgs
   * @private
   */

  _excessArguments(receivedArgs) {
    if (this._allowExcessArguments) return;

    const expected = this.registeredArguments.length;
    const s = expected === 1 ? '' : 's';
    const forSubcommand = this.parent ? ` for '${this.name()}'` : '';
    const message = `error: too many arguments${forSubcommand}. Expected ${expected} argument${s} but got ${receivedArgs.length}.`;
    this.error(message, { code: 'commander.excessArguments' });
  }

  /**
   * Unknown command.
   *
   * @private
   */

  unknownCommand() {
    const unknownName = this.args[0];
    let suggestion = '';

    if (this._showSuggestionAfterError) {
      const candidateNames = [];
      this.createHelp()
        .visibleCommands(this)
        .forEach((command) => {
          candidateNames.push(command.name());
          // just visible alias
          if (command.alias()) candidateNames.push(command.alias());
        });
      suggestion = suggestSimilar(unknownName, candidateNames);
    }

    const message = `error: unknown command '${unknownName}'${suggestion}`;
    this.error(message, { code: 'commander.unknownCommand' });
  }

  /**
   * Get or set the program version.
   *
   * This method auto-registers the "-V, --version" option which will print the version number.
   *
   * You can optionally supply the flags and description to override the defaults.
   *
   * @param {string} [str]
   * @param {string} [flags]
   * @param {string} [description]
   * @return {(this | string | undefined)} `this` command for chaining, or version string if no arguments
   */

  version(str, flags, description) {
    if (str === undefined) return this._version;
    this._version = str;
    flags = flags || '-V, --version';
    description = description || 'output the version number';
    const versionOption = this.createOption(flags, description);
    this._versionOptionName = versionOption.attributeName();
    this._registerOption(versionOption);

    this.on('option:' + versionOption.name(), () => {
      this._outputConfiguration.writeOut(`${str}\n`);
      this._exit(0, 'commander.version', str);
    });
    return this;
  }

  /**
   * Set the description.
   *
   * @param {string} [str]
   * @param {object} [argsDescription]
   * @return {(string|Command)}
   */
  description(str, argsDescription) {
    if (str === undefined && argsDescription === undefined)
      return this._description;
    this._description = str;
    if (argsDescription) {
      this._argsDescription = argsDescription;
    }
    return this;
  }

  /**
   * Set the summary. Used when listed as subcommand of parent.
   *
   * @param {string} [str]
   * @return {(string|Command)}
   */
  summary(str) {
    if (str === undefined) return this._summary;
    this._summary = str;
    return this;
  }

  /**
   * Set an alias for the command.
   *
   * You may call more than once to add multiple aliases. Only the first alias is shown in the auto-generated help.
   *
   * @param {string} [alias]
   * @return {(string|Command)}
   */

  alias(alias) {
    if (alias === undefined) return this._aliases[0]; // just return first, for backwards compatibility

    /** @type {Command} */
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let command = this;
    if (
      this.commands.length !== 0 &&
      this.commands[this.commands.length - 1]._executableHandler
    ) {
      // assume adding alias for last added executable subcommand, rather than this
      command = this.commands[this.commands.length - 1];
    }

    if (alias === command._name)
      throw new Error("Command alias can't be the same as its name");
    const matchingCommand = this.parent?._findCommand(alias);
    if (matchingCommand) {
      // c.f. _registerCommand
      const existingCmd = [matchingCommand.name()]
        .concat(matchingCommand.aliases())
        .join('|');
      throw new Error(
        `cannot add alias '${alias}' to command '${this.name()}' as already have command '${existingCmd}'`,
      );
    }

    command._aliases.push(alias);
    return this;
  }

  /**
   * Set aliases for the command.
   *
   * Only the first alias is shown in the auto-generated help.
   *
   * @param {string[]} [aliases]
   * @return {(string[]|Command)}
   */

  aliases(aliases) {
    // Getter for the array of aliases is the main reason for having aliases() in addition to alias().
    if (aliases === undefined) return this._aliases;

    aliases.forEach((alias) => this.alias(alias));
    return this;
  }

  /**
   * Set / get the command usage `str`.
   *
   * @param {string} [str]
   * @return {(string|Command)}
   */

  usage(str) {
    if (str === undefined) {
      if (this._usage) return this._usage;

      const args = this.registeredArguments.map((arg) => {
        return humanReadableArgName(arg);
      });
      return []
        .concat(
          this.options.length || this._helpOption !== null ? '[options]' : [],
          this.commands.length ? '[command]' : [],
          this.registeredArguments.length ? args : [],
        )
        .join(' ');
    }

    this._usage = str;
    return this;
  }

  /**
   * Get or set the name of the command.
   *
   * @param {string} [str]
   * @return {(string|Command)}
   */

  name(str) {
    if (str === undefined) return this._name;
    this._name = str;
    return this;
  }

  /**
   * Set/get the help group heading for this subcommand in parent command's help.
   *
   * @param {string} [heading]
   * @return {Command | string}
   */

  helpGroup(heading) {
    if (heading === undefined) return this._helpGroupHeading ?? '';
    this._helpGroupHeading = heading;
    return this;
  }

  /**
   * Set/get the default help group heading for subcommands added to this command.
   * (This does not override a group set directly on the subcommand using .helpGroup().)
   *
   * @example
   * program.commandsGroup('Development Commands:);
   * program.command('watch')...
   * program.command('lint')...
   * ...
   *
   * @param {string} [heading]
   * @returns {Command | string}
   */
  commandsGroup(heading) {
    if (heading === undefined) return this._defaultCommandGroup ?? '';
    this._defaultCommandGroup = heading;
    return this;
  }

  /**
   * Set/get the default help group heading for options added to this command.
   * (This does not override a group set directly on the option using .helpGroup().)
   *
   * @example
   * program
   *   .optionsGroup('Development Options:')
   *   .option('-d, --debug', 'output extra debugging')
   *   .option('-p, --profile', 'output profiling information')
   *
   * @param {string} [heading]
   * @returns {Command | string}
   */
  optionsGroup(heading) {
    if (heading === undefined) return this._defaultOptionGroup ?? '';
    this._defaultOptionGroup = heading;
    return this;
  }

  /**
   * @param {Option} option
   * @private
   */
  _initOptionGroup(option) {
    if (this._defaultOptionGroup && !option.helpGroupHeading)
      option.helpGroup(this._defaultOptionGroup);
  }

  /**
   * @param {Command} cmd
   * @private
   */
  _initCommandGroup(cmd) {
    if (this._defaultCommandGroup && !cmd.helpGroup())
      cmd.helpGroup(this._defaultCommandGroup);
  }

  /**
   * Set the name of the command from script filename, such as process.argv[1],
   * or require.main.filename, or __filename.
   *
   * (Used internally and public although not documented in README.)
   *
   * @example
   * program.nameFromFilename(require.main.filename);
   *
   * @param {string} filename
   * @return {Command}
   */

  nameFromFilename(filename) {
    this._name = path.basename(filename, path.extname(filename));

    return this;
  }

  /**
   * Get or set the directory for searching for executable subcommands of this command.
   *
   * @example
   * program.executableDir(__dirname);
   * // or
   * program.executableDir('subcommands');
   *
   * @param {string} [path]
   * @return {(string|null|Command)}
   */

  executableDir(path) {
    if (path === undefined) return this._executableDir;
    this._executableDir = path;
    return this;
  }

  /**
   * Return program help documentation.
   *
   * @param {{ error: boolean }} [contextOptions] - pass {error:true} to wrap for stderr instead of stdout
   * @return {string}
   */

  helpInformation(contextOptions) {
    const helper = this.createHelp();
    const context = this._getOutputContext(contextOptions);
    helper.prepareContext({
      error: context.error,
      helpWidth: context.helpWidth,
      outputHasColors: context.hasColors,
    });
    const text = helper.formatHelp(this, helper);
    if (context.hasColors) return text;
    return this._outputConfiguration.stripColor(text);
  }

  /**
   * @typedef HelpContext
   * @type {object}
   * @property {boolean} error
   * @property {number} helpWidth
   * @property {boolean} hasColors
   * @property {function} write - includes stripColor if needed
   *
   * @returns {HelpContext}
   * @private
   */

  _getOutputContext(contextOptions) {
    contextOptions = contextOptions || {};
    const error = !!contextOptions.error;
    let baseWrite;
    let hasColors;
    let helpWidth;
    if (error) {
      baseWrite = (str) => this._outputConfiguration.writeErr(str);
      hasColors = this._outputConfiguration.getErrHasColors();
      helpWidth = this._outputConfiguration.getErrHelpWidth();
    } else {
      baseWrite = (str) => this._outputConfiguration.writeOut(str);
      hasColors = this._outputConfiguration.getOutHasColors();
      helpWidth = this._outputConfiguration.getOutHelpWidth();
    }
    const write = (str) => {
      if (!hasColors) str = this._outputConfiguration.stripColor(str);
      return baseWrite(str);
    };
    return { error, write, hasColors, helpWidth };
  }

  /**
   * Output help information for this command.
   *
   * Outputs built-in help, and custom text added using `.addHelpText()`.
   *
   * @param {{ error: boolean } | Function} [contextOptions] - pass {error:true} to write to stderr instead of stdout
   */

  outputHelp(contextOptions) {
    let deprecatedCallback;
    if (typeof contextOptions === 'function') {
      deprecatedCallback = contextOptions;
      contextOptions = undefined;
    }

    const outputContext = this._getOutputContext(contextOptions);
    /** @type {HelpTextEventContext} */
    const eventContext = {
      error: outputContext.error,
      write: outputContext.write,
      command: this,
    };

    this._getCommandAndAncestors()
      .reverse()
      .forEach((command) => command.emit('beforeAllHelp', eventContext));
    this.emit('beforeHelp', eventContext);

    let helpInformation = this.helpInformation({ error: outputContext.error });
    if (deprecatedCallback) {
      helpInformation = deprecatedCallback(helpInformation);
      if (
        typeof helpInformation !== 'string' &&
        !Buffer.isBuffer(helpInformation)
      ) {
        throw new Error('outputHelp callback must return a string or a Buffer');
      }
    }
    outputContext.write(helpInformation);

    if (this._getHelpOption()?.long) {
      this.emit(this._getHelpOption().long); // deprecated
    }
    this.emit('afterHelp', eventContext);
    this._getCommandAndAncestors().forEach((command) =>
      command.emit('afterAllHelp', eventContext),
    );
  }

  /**
   * You can pass in flags and a description to customise the built-in help option.
   * Pass in false to disable the built-in help option.
   *
   * @example
   * program.helpOption('-?, --help' 'show help'); // customise
   * program.helpOption(false); // disable
   *
   * @param {(string | boolean)} flags
   * @param {string} [description]
   * @return {Command} `this` command for chaining
   */

  helpOption(flags, description) {
    // Support enabling/disabling built-in help option.
    if (typeof flags === 'boolean') {
      if (flags) {
        if (this._helpOption === null) this._helpOption = undefined; // reenable
        if (this._defaultOptionGroup) {
          // make the option to store the group
          this._initOptionGroup(this._getHelpOption());
        }
      } else {
        this._helpOption = null; // disable
      }
      return this;
    }

    // Customise flags and description.
    this._helpOption = this.createOption(
      flags ?? '-h, --help',
      description ?? 'display help for command',
    );
    // init group unless lazy create
    if (flags || description) this._initOptionGroup(this._helpOption);

    return this;
  }

  /**
   * Lazy create help option.
   * Returns null if has been disabled with .helpOption(false).
   *
   * @returns {(Option | null)} the help option
   * @package
   */
  _getHelpOption() {
    // Lazy create help option on demand.
    if (this._helpOption === undefined) {
      this.helpOption(undefined, undefined);
    }
    return this._helpOption;
  }

  /**
   * Supply your own option to use for the built-in help option.
   * This is an alternative to using helpOption() to customise the flags and description etc.
   *
   * @param {Option} option
   * @return {Command} `this` command for chaining
   */
  addHelpOption(option) {
    this._helpOption = option;
    this._initOptionGroup(option);
    return this;
  }

  /**
   * Output help information and exit.
   *
   * Outputs built-in help, and custom text added using `.addHelpText()`.
   *
   * @param {{ error: boolean }} [contextOptions] - pass {error:true} to write to stderr instead of stdout
   */

  help(contextOptions) {
    this.outputHelp(contextOptions);
    let exitCode = Number(process.exitCode ?? 0); // process.exitCode does allow a string or an integer, but we prefer just a number
    if (
      exitCode === 0 &&
      contextOptions &&
      typeof contextOptions !== 'function' &&
      contextOptions.error
    ) {
      exitCode = 1;
    }
    // message: do not have all displayed text available so only passing placeholder.
    this._exit(exitCode, 'commander.help', '(outputHelp)');
  }

  /**
   * // Do a little typing to coordinate emit and listener for the help text events.
   * @typedef HelpTextEventContext
   * @type {object}
   * @property {boolean} error
   * @property {Command} command
   * @property {function} write
   */

  /**
   * Add additional text to be displayed with the built-in help.
   *
   * Position is 'before' or 'after' to affect just this command,
   * and 'beforeAll' or 'afterAll' to affect this command and all its subcommands.
   *
   * @param {string} position - before or after built-in help
   * @param {(string | Function)} text - string to add, or a function returning a string
   * @return {Command} `this` command for chaining
   */

  addHelpText(position, text) {
    const allowedValues = ['beforeAll', 'before', 'after', 'afterAll'];
    if (!allowedValues.includes(position)) {
      throw new Error(`Unexpected value for position to addHelpText.
Expecting one of '${allowedValues.join("', '")}'`);
    }

    const helpEvent = `${position}Help`;
    this.on(helpEvent, (/** @type {HelpTextEventContext} */ context) => {
      let helpStr;
      if (typeof text === 'function') {
        helpStr = text({ error: context.error, command: context.command });
      } else {
        helpStr = text;
      }
      // Ignore falsy value when nothing to output.
      if (helpStr) {
        context.write(`${helpStr}\n`);
      }
    });
    return this;
  }

  /**
   * Output help information if help flags specified
   *
   * @param {Array} args - array of options to search for help flags
   * @private
   */

  _outputHelpIfRequested(args) {
    const helpOption = this._getHelpOption();
    const helpRequested = helpOption && args.find((arg) => helpOption.is(arg));
    if (helpRequested) {
      this.outputHelp();
      // (Do not have all displayed text available so only passing placeholder.)
      this._exit(0, 'commander.helpDisplayed', '(outputHelp)');
    }
  }
}

/**
 * Scan arguments and increment port number for inspect calls (to avoid conflicts when spawning new command).
 *
 * @param {string[]} args - array of arguments from node.execArgv
 * @returns {string[]}
 * @private
 */

function incrementNodeInspectorPort(args) {
  // Testing for these options:
  //  --inspect[=[host:]port]
  //  --inspect-brk[=[host:]port]
  //  --inspect-port=[host:]port
  return args.map((arg) => {
    if (!arg.startsWith('--inspect')) {
      return arg;
    }
    let debugOption;
    let debugHost = '127.0.0.1';
    let debugPort = '9229';
    let match;
    if ((match = arg.match(/^(--inspect(-brk)?)$/)) !== null) {
      // e.g. --inspect
      debugOption = match[1];
    } else if (
      (match = arg.match(/^(--inspect(-brk|-port)?)=([^:]+)$/)) !== null
    ) {
      debugOption = match[1];
      if (/^\d+$/.test(match[3])) {
        // e.g. --inspect=1234
        debugPort = match[3];
      } else {
        // e.g. --inspect=localhost
        debugHost = match[3];
      }
    } else if (
      (match = arg.match(/^(--inspect(-brk|-port)?)=([^:]+):(\d+)$/)) !== null
    ) {
      // e.g. --inspect=localhost:1234
      debugOption = match[1];
      debugHost = match[3];
      debugPort = match[4];
    }

    if (debugOption && debugPort !== '0') {
      return `${debugOption}=${debugHost}:${parseInt(debugPort) + 1}`;
    }
    return arg;
  });
}

/**
 * @returns {boolean | undefined}
 * @package
 */
function useColor() {
  // Test for common conventions.
  // NB: the observed behaviour is in combination with how author adds color! For example:
  //   - we do not test NODE_DISABLE_COLORS, but util:styletext does
  //   - we do test NO_COLOR, but Chalk does not
  //
  // References:
  // https://no-color.org
  // https://bixense.com/clicolors/
  // https://github.com/nodejs/node/blob/0a00217a5f67ef4a22384cfc80eb6dd9a917fdc1/lib/internal/tty.js#L109
  // https://github.com/chalk/supports-color/blob/c214314a14bcb174b12b3014b2b0a8de375029ae/index.js#L33
  // (https://force-color.org recent web page from 2023, does not match major javascript implementations)

  if (
    process.env.NO_COLOR ||
    process.env.FORCE_COLOR === '0' ||
    process.env.FORCE_COLOR === 'false'
  )
    return false;
  if (process.env.FORCE_COLOR || process.env.CLICOLOR_FORCE !== undefined)
    return true;
  return undefined;
}

exports.Command = Command;
exports.useColor = useColor; // exporting for tests


/***/ }),

/***/ 1135:
/***/ ((__unused_webpack_module, exports) => {

/**
 * CommanderError class
 */
class CommanderError extends Error {
  /**
   * Constructs the CommanderError class
   * @param {number} exitCode suggested exit code which could be used with process.exit
   * @param {string} code an id string representing the error
   * @param {string} message human-readable description of the error
   */
  constructor(exitCode, code, message) {
    super(message);
    // properly capture stack trace in Node.js
    Error.captureStackTrace(this, this.constructor);
    this.name = this.constructor.name;
    this.code = code;
    this.exitCode = exitCode;
    this.nestedError = undefined;
  }
}

/**
 * InvalidArgumentError class
 */
class InvalidArgumentError extends CommanderError {
  /**
   * Constructs the InvalidArgumentError class
   * @param {string} [message] explanation of why argument is invalid
   */
  constructor(message) {
    super(1, 'commander.invalidArgument', message);
    // properly capture stack trace in Node.js
    Error.captureStackTrace(this, this.constructor);
    this.name = this.constructor.name;
  }
}

exports.CommanderError = CommanderError;
exports.InvalidArgumentError = InvalidArgumentError;


/***/ }),

/***/ 9754:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

const { humanReadableArgName } = __nccwpck_require__(9154);

/**
 * TypeScript import types for JSDoc, used by Visual Studio Code IntelliSense and `npm run typescript-checkJS`
 * https://www.typescriptlang.org/docs/handbook/jsdoc-supported-types.html#import-types
 * @typedef { import("./argument.js").Argument } Argument
 * @typedef { import("./command.js").Command } Command
 * @typedef { import("./option.js").Option } Option
 */

// Although this is a class, methods are static in style to allow override using subclass or just functions.
class Help {
  constructor() {
    this.helpWidth = undefined;
    this.minWidthToWrap = 40;
    this.sortSubcommands = false;
    this.sortOptions = false;
    this.showGlobalOptions = false;
  }

  /**
   * prepareContext is called by Commander after applying overrides from `Command.configureHelp()`
   * and just before calling `formatHelp()`.
   *
   * Commander just uses the helpWidth and the rest is provided for optional use by more complex subclasses.
   *
   * @param {{ error?: boolean, helpWidth?: number, outputHasColors?: boolean }} contextOptions
   */
  prepareContext(contextOptions) {
    this.helpWidth = this.helpWidth ?? contextOptions.helpWidth ?? 80;
  }

  /**
   * Get an array of the visible subcommands. Includes a placeholder for the implicit help command, if there is one.
   *
   * @param {Command} cmd
   * @returns {Command[]}
   */

  visibleCommands(cmd) {
    const visibleCommands = cmd.commands.filter((cmd) => !cmd._hidden);
    const helpCommand = cmd._getHelpCommand();
    if (helpCommand && !helpCommand._hidden) {
      visibleCommands.push(helpCommand);
    }
    if (this.sortSubcommands) {
      visibleCommands.sort((a, b) => {
        // @ts-ignore: because overloaded return type
        return a.name().localeCompare(b.name());
      });
    }
    return visibleCommands;
  }

  /**
   * Compare options for sort.
   *
   * @param {Option} a
   * @param {Option} b
   * @returns {number}
   */
  compareOptions(a, b) {
    const getSortKey = (option) => {
      // WYSIWYG for order displayed in help. Short used for comparison if present. No special handling for negated.
      return option.short
        ? option.short.replace(/^-/, '')
        : option.long.replace(/^--/, '');
    };
    return getSortKey(a).localeCompare(getSortKey(b));
  }

  /**
   * Get an array of the visible options. Includes a placeholder for the implicit help option, if there is one.
   *
   * @param {Command} cmd
   * @returns {Option[]}
   */

  visibleOptions(cmd) {
    const visibleOptions = cmd.options.filter((option) => !option.hidden);
    // Built-in help option.
    const helpOption = cmd._getHelpOption();
    if (helpOption && !helpOption.hidden) {
      // Automatically hide conflicting flags. Bit dubious but a historical behaviour that is convenient for single-command programs.
      const removeShort = helpOption.short && cmd._findOption(helpOption.short);
      const removeLong = helpOption.long && cmd._findOption(helpOption.long);
      if (!removeShort && !removeLong) {
        visibleOptions.push(helpOption); // no changes needed
      } else if (helpOption.long && !removeLong) {
        visibleOptions.push(
          cmd.createOption(helpOption.long, helpOption.description),
        );
      } else if (helpOption.short && !removeShort) {
        visibleOptions.push(
          cmd.createOption(helpOption.short, helpOption.description),
        );
      }
    }
    if (this.sortOptions) {
      visibleOptions.sort(this.compareOptions);
    }
    return visibleOptions;
  }

  /**
   * Get an array of the visible global options. (Not including help.)
   *
   * @param {Command} cmd
   * @returns {Option[]}
   */

  visibleGlobalOptions(cmd) {
    if (!this.showGlobalOptions) return [];

    const globalOptions = [];
    for (
      let ancestorCmd = cmd.parent;
      ancestorCmd;
      ancestorCmd = ancestorCmd.parent
    ) {
      const visibleOptions = ancestorCmd.options.filter(
        (option) => !option.hidden,
      );
      globalOptions.push(...visibleOptions);
    }
    if (this.sortOptions) {
      globalOptions.sort(this.compareOptions);
    }
    return globalOptions;
  }

  /**
   * Get an array of the arguments if any have a description.
   *
   * @param {Command} cmd
   * @returns {Argument[]}
   */

  visibleArguments(cmd) {
    // Side effect! Apply the legacy descriptions before the arguments are displayed.
    if (cmd._argsDescription) {
      cmd.registeredArguments.forEach((argument) => {
        argument.description =
          argument.description || cmd._argsDescription[argument.name()] || '';
      });
    }

    // If there are any arguments with a description then return all the arguments.
    if (cmd.registeredArguments.find((argument) => argument.description)) {
      return cmd.registeredArguments;
    }
    return [];
  }

  /**
   * Get the command term to show in the list of subcommands.
   *
   * @param {Command} cmd
   * @returns {string}
   */

  subcommandTerm(cmd) {
    // Legacy. Ignores custom usage string, and nested commands.
    const args = cmd.registeredArguments
      .map((arg) => humanReadableArgName(arg))
      .join(' ');
    return (
      cmd._name +
      (cmd._aliases[0] ? '|' + cmd._aliases[0] : '') +
      (cmd.options.length ? ' [options]' : '') + // simplistic check for non-help option
      (args ? ' ' + args : '')
    );
  }

  /**
   * Get the option term to show in the list of options.
   *
   * @param {Option} option
   * @returns {string}
   */

  optionTerm(option) {
    return option.flags;
  }

  /**
   * Get the argument term to show in the list of arguments.
   *
   * @param {Argument} argument
   * @returns {string}
   */

  argumentTerm(argument) {
    return argument.name();
  }

  /**
   * Get the longest command term length.
   *
   * @param {Command} cmd
   * @param {Help} helper
   * @returns {number}
   */

  longestSubcommandTermLength(cmd, helper) {
    return helper.visibleCommands(cmd).reduce((max, command) => {
      return Math.max(
        max,
        this.displayWidth(
          helper.styleSubcommandTerm(helper.subcommandTerm(command)),
        ),
      );
    }, 0);
  }

  /**
   * Get the longest option term length.
   *
   * @param {Command} cmd
   * @param {Help} helper
   * @returns {number}
   */

  longestOptionTermLength(cmd, helper) {
    return helper.visibleOptions(cmd).reduce((max, option) => {
      return Math.max(
        max,
        this.displayWidth(helper.styleOptionTerm(helper.optionTerm(option))),
      );
    }, 0);
  }

  /**
   * Get the longest global option term length.
   *
   * @param {Command} cmd
   * @param {Help} helper
   * @returns {number}
   */

  longestGlobalOptionTermLength(cmd, helper) {
    return helper.visibleGlobalOptions(cmd).reduce((max, option) => {
      return Math.max(
        max,
        this.displayWidth(helper.styleOptionTerm(helper.optionTerm(option))),
      );
    }, 0);
  }

  /**
   * Get the longest argument term length.
   *
   * @param {Command} cmd
   * @param {Help} helper
   * @returns {number}
   */

  longestArgumentTermLength(cmd, helper) {
    return helper.visibleArguments(cmd).reduce((max, argument) => {
      return Math.max(
        max,
        this.displayWidth(
          helper.styleArgumentTerm(helper.argumentTerm(argument)),
        ),
      );
    }, 0);
  }

  /**
   * Get the command usage to be displayed at the top of the built-in help.
   *
   * @param {Command} cmd
   * @returns {string}
   */

  commandUsage(cmd) {
    // Usage
    let cmdName = cmd._name;
    if (cmd._aliases[0]) {
      cmdName = cmdName + '|' + cmd._aliases[0];
    }
    let ancestorCmdNames = '';
    for (
      let ancestorCmd = cmd.parent;
      ancestorCmd;
      ancestorCmd = ancestorCmd.parent
    ) {
      ancestorCmdNames = ancestorCmd.name() + ' ' + ancestorCmdNames;
    }
    return ancestorCmdNames + cmdName + ' ' + cmd.usage();
  }

  /**
   * Get the description for the command.
   *
   * @param {Command} cmd
   * @returns {string}
   */

  commandDescription(cmd) {
    // @ts-ignore: because overloaded return type
    return cmd.description();
  }

  /**
   * Get the subcommand summary to show in the list of subcommands.
   * (Fallback to description for backwards compatibility.)
   *
   * @param {Command} cmd
   * @returns {string}
   */

  subcommandDescription(cmd) {
    // @ts-ignore: because overloaded return type
    return cmd.summary() || cmd.description();
  }

  /**
   * Get the option description to show in the list of options.
   *
   * @param {Option} option
   * @return {string}
   */

  optionDescription(option) {
    const extraInfo = [];

    if (option.argChoices) {
      extraInfo.push(
        // use stringify to match the display of the default value
        `choices: ${option.argChoices.map((choice) => JSON.stringify(choice)).join(', ')}`,
      );
    }
    if (option.defaultValue !== undefined) {
      // default for boolean and negated more for programmer than end user,
      // but show true/false for boolean option as may be for hand-rolled env or config processing.
      const showDefault =
        option.required ||
        option.optional ||
        (option.isBoolean() && typeof option.defaultValue === 'boolean');
      if (showDefault) {
        extraInfo.push(
          `default: ${option.defaultValueDescription || JSON.stringify(option.defaultValue)}`,
        );
      }
    }
    // preset for boolean and negated are more for programmer than end user
    if (option.presetArg !== undefined && option.optional) {
      extraInfo.push(`preset: ${JSON.stringify(option.presetArg)}`);
    }
    if (option.envVar !== undefined) {
      extraInfo.push(`env: ${option.envVar}`);
    }
    if (extraInfo.length > 0) {
      const extraDescription = `(${extraInfo.join(', ')})`;
      if (option.description) {
        return `${option.description} ${extraDescription}`;
      }
      return extraDescription;
    }

    return option.description;
  }

  /**
   * Get the argument description to show in the list of arguments.
   *
   * @param {Argument} argument
   * @return {string}
   */

  argumentDescription(argument) {
    const extraInfo = [];
    if (argument.argChoices) {
      extraInfo.push(
        // use stringify to match the display of the default value
        `choices: ${argument.argChoices.map((choice) => JSON.stringify(choice)).join(', ')}`,
      );
    }
    if (argument.defaultValue !== undefined) {
      extraInfo.push(
        `default: ${argument.defaultValueDescription || JSON.stringify(argument.defaultValue)}`,
      );
    }
    if (extraInfo.length > 0) {
      const extraDescription = `(${extraInfo.join(', ')})`;
      if (argument.description) {
        return `${argument.description} ${extraDescription}`;
      }
      return extraDescription;
    }
    return argument.description;
  }

  /**
   * Format a list of items, given a heading and an array of formatted items.
   *
   * @param {string} heading
   * @param {string[]} items
   * @param {Help} helper
   * @returns string[]
   */
  formatItemList(heading, items, helper) {
    if (items.length === 0) return [];

    return [helper.styleTitle(heading), ...items, ''];
  }

  /**
   * Group items by their help group heading.
   *
   * @param {Command[] | Option[]} unsortedItems
   * @param {Command[] | Option[]} visibleItems
   * @param {Function} getGroup
   * @returns {Map<string, Command[] | Option[]>}
   */
  groupItems(unsortedItems, visibleItems, getGroup) {
    const result = new Map();
    // Add groups in order of appearance in unsortedItems.
    unsortedItems.forEach((item) => {
      const group = getGroup(item);
      if (!result.has(group)) result.set(group, []);
    });
    // Add items in order of appearance in visibleItems.
    visibleItems.forEach((item) => {
      const group = getGroup(item);
      if (!result.has(group)) {
        result.set(group, []);
      }
      result.get(group).push(item);
    });
    return result;
  }

  /**
   * Generate the built-in help text.
   *
   * @param {Command} cmd
   * @param {Help} helper
   * @returns {string}
   */

  formatHelp(cmd, helper) {
    const termWidth = helper.padWidth(cmd, helper);
    const helpWidth = helper.helpWidth ?? 80; // in case prepareContext() was not called

    function callFormatItem(term, description) {
      return helper.formatItem(term, termWidth, description, helper);
    }

    // Usage
    let output = [
      `${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(cmd))}`,
      '',
    ];

    // Description
    const commandDescription = helper.commandDescription(cmd);
    if (commandDescription.length > 0) {
      output = output.concat([
        helper.boxWrap(
          helper.styleCommandDescription(commandDescription),
          helpWidth,
        ),
        '',
      ]);
    }

    // Arguments
    const argumentList = helper.visibleArguments(cmd).map((argument) => {
      return callFormatItem(
        helper.styleArgumentTerm(helper.argumentTerm(argument)),
        helper.styleArgumentDescription(helper.argumentDescription(argument)),
      );
    });
    output = output.concat(
      this.formatItemList('Arguments:', argumentList, helper),
    );

    // Options
    const optionGroups = this.groupItems(
      cmd.options,
      helper.visibleOptions(cmd),
      (option) => option.helpGroupHeading ?? 'Options:',
    );
    optionGroups.forEach((options, group) => {
      const optionList = options.map((option) => {
        return callFormatItem(
          helper.styleOptionTerm(helper.optionTerm(option)),
          helper.styleOptionDescription(helper.optionDescription(option)),
        );
      });
      output = output.concat(this.formatItemList(group, optionList, helper));
    });

    if (helper.showGlobalOptions) {
      const globalOptionList = helper
        .visibleGlobalOptions(cmd)
        .map((option) => {
          return callFormatItem(
            helper.styleOptionTerm(helper.optionTerm(option)),
            helper.styleOptionDescription(helper.optionDescription(option)),
          );
        });
      output = output.concat(
        this.formatItemList('Global Options:', globalOptionList, helper),
      );
    }

    // Commands
    const commandGroups = this.groupItems(
      cmd.commands,
      helper.visibleCommands(cmd),
      (sub) => sub.helpGroup() || 'Commands:',
    );
    commandGroups.forEach((commands, group) => {
      const commandList = commands.map((sub) => {
        return callFormatItem(
          helper.styleSubcommandTerm(helper.subcommandTerm(sub)),
          helper.styleSubcommandDescription(helper.subcommandDescription(sub)),
        );
      });
      output = output.concat(this.formatItemList(group, commandList, helper));
    });

    return output.join('\n');
  }

  /**
   * Return display width of string, ignoring ANSI escape sequences. Used in padding and wrapping calculations.
   *
   * @param {string} str
   * @returns {number}
   */
  displayWidth(str) {
    return stripColor(str).length;
  }

  /**
   * Style the title for displaying in the help. Called with 'Usage:', 'Options:', etc.
   *
   * @param {string} str
   * @returns {string}
   */
  styleTitle(str) {
    return str;
  }

  styleUsage(str) {
    // Usage has lots of parts the user might like to color separately! Assume default usage string which is formed like:
    //    command subcommand [options] [command] <foo> [bar]
    return str
      .split(' ')
      .map((word) => {
        if (word === '[options]') return this.styleOptionText(word);
        if (word === '[command]') return this.styleSubcommandText(word);
        if (word[0] === '[' || word[0] === '<')
          return this.styleArgumentText(word);
        return this.styleCommandText(word); // Restrict to initial words?
      })
      .join(' ');
  }
  styleCommandDescription(str) {
    return this.styleDescriptionText(str);
  }
  styleOptionDescription(str) {
    return this.styleDescriptionText(str);
  }
  styleSubcommandDescription(str) {
    return this.styleDescriptionText(str);
  }
  styleArgumentDescription(str) {
    return this.styleDescriptionText(str);
  }
  styleDescriptionText(str) {
    return str;
  }
  styleOptionTerm(str) {
    return this.styleOptionText(str);
  }
  styleSubcommandTerm(str) {
    // This is very like usage with lots of parts! Assume default string which is formed like:
    //    subcommand [options] <foo> [bar]
    return str
      .split(' ')
      .map((word) => {
        if (word === '[options]') return this.styleOptionText(word);
        if (word[0] === '[' || word[0] === '<')
          return this.styleArgumentText(word);
        return this.styleSubcommandText(word); // Restrict to initial words?
      })
      .join(' ');
  }
  styleArgumentTerm(str) {
    return this.styleArgumentText(str);
  }
  styleOptionText(str) {
    return str;
  }
  styleArgumentText(str) {
    return str;
  }
  styleSubcommandText(str) {
    return str;
  }
  styleCommandText(str) {
    return str;
  }

  /**
   * Calculate the pad width from the maximum term length.
   *
   * @param {Command} cmd
   * @param {Help} helper
   * @returns {number}
   */

  padWidth(cmd, helper) {
    return Math.max(
      helper.longestOptionTermLength(cmd, helper),
      helper.longestGlobalOptionTermLength(cmd, helper),
      helper.longestSubcommandTermLength(cmd, helper),
      helper.longestArgumentTermLength(cmd, helper),
    );
  }

  /**
   * Detect manually wrapped and indented strings by checking for line break followed by whitespace.
   *
   * @param {string} str
   * @returns {boolean}
   */
  preformatted(str) {
    return /\n[^\S\r\n]/.test(str);
  }

  /**
   * Format the "item", which consists of a term and description. Pad the term and wrap the description, indenting the following lines.
   *
   * So "TTT", 5, "DDD DDDD DD DDD" might be formatted for this.helpWidth=17 like so:
   *   TTT  DDD DDDD
   *        DD DDD
   *
   * @param {string} term
   * @param {number} termWidth
   * @param {string} description
   * @param {Help} helper
   * @returns {string}
   */
  formatItem(term, termWidth, description, helper) {
    const itemIndent = 2;
    const itemIndentStr = ' '.repeat(itemIndent);
    if (!description) return itemIndentStr + term;

    // Pad the term out to a consistent width, so descriptions are aligned.
    const paddedTerm = term.padEnd(
      termWidth + term.length - helper.displayWidth(term),
    );

    // Format the description.
    const spacerWidth = 2; // between term and description
    const helpWidth = this.helpWidth ?? 80; // in case prepareContext() was not called
    const remainingWidth = helpWidth - termWidth - spacerWidth - itemIndent;
    let formattedDescription;
    if (
      remainingWidth < this.minWidthToWrap ||
      helper.preformatted(description)
    ) {
      formattedDescription = description;
    } else {
      const wrappedDescription = helper.boxWrap(description, remainingWidth);
      formattedDescription = wrappedDescription.replace(
        /\n/g,
        '\n' + ' '.repeat(termWidth + spacerWidth),
      );
    }

    // Construct and overall indent.
    return (
      itemIndentStr +
      paddedTerm +
      ' '.repeat(spacerWidth) +
      formattedDescription.replace(/\n/g, `\n${itemIndentStr}`)
    );
  }

  /**
   * Wrap a string at whitespace, preserving existing line breaks.
   * Wrapping is skipped if the width is less than `minWidthToWrap`.
   *
   * @param {string} str
   * @param {number} width
   * @returns {string}
   */
  boxWrap(str, width) {
    if (width < this.minWidthToWrap) return str;

    const rawLines = str.split(/\r\n|\n/);
    // split up text by whitespace
    const chunkPattern = /[\s]*[^\s]+/g;
    const wrappedLines = [];
    rawLines.forEach((line) => {
      const chunks = line.match(chunkPattern);
      if (chunks === null) {
        wrappedLines.push('');
        return;
      }

      let sumChunks = [chunks.shift()];
      let sumWidth = this.displayWidth(sumChunks[0]);
      chunks.forEach((chunk) => {
        const visibleWidth = this.displayWidth(chunk);
        // Accumulate chunks while they fit into width.
        if (sumWidth + visibleWidth <= width) {
          sumChunks.push(chunk);
          sumWidth += visibleWidth;
          return;
        }
        wrappedLines.push(sumChunks.join(''));

        const nextChunk = chunk.trimStart(); // trim space at line break
        sumChunks = [nextChunk];
        sumWidth = this.displayWidth(nextChunk);
      });
      wrappedLines.push(sumChunks.join(''));
    });

    return wrappedLines.join('\n');
  }
}

/**
 * Strip style ANSI escape sequences from the string. In particular, SGR (Select Graphic Rendition) codes.
 *
 * @param {string} str
 * @returns {string}
 * @package
 */

function stripColor(str) {
  // eslint-disable-next-line no-control-regex
  const sgrPattern = /\x1b\[\d*(;\d*)*m/g;
  return str.replace(sgrPattern, '');
}

exports.Help = Help;
exports.stripColor = stripColor;


/***/ }),

/***/ 5240:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

const { InvalidArgumentError } = __nccwpck_require__(1135);

class Option {
  /**
   * Initialize a new `Option` with the given `flags` and `description`.
   *
   * @param {string} flags
   * @param {string} [description]
   */

  constructor(flags, description) {
    this.flags = flags;
    this.description = description || '';

    this.required = flags.includes('<'); // A value must be supplied when the option is specified.
    this.optional = flags.includes('['); // A value is optional when the option is specified.
    // variadic test ignores <value,...> et al which might be used to describe custom splitting of single argument
    this.variadic = /\w\.\.\.[>\]]$/.test(flags); // The option can take multiple values.
    this.mandatory = false; // The option must have a value after parsing, which usually means it must be specified on command line.
    const optionFlags = splitOptionFlags(flags);
    this.short = optionFlags.shortFlag; // May be a short flag, undefined, or even a long flag (if option has two long flags).
    this.long = optionFlags.longFlag;
    this.negate = false;
    if (this.long) {
      this.negate = this.long.startsWith('--no-');
    }
    this.defaultValue = undefined;
    this.defaultValueDescription = undefined;
    this.presetArg = undefined;
    this.envVar = undefined;
    this.parseArg = undefined;
    this.hidden = false;
    this.argChoices = undefined;
    this.conflictsWith = [];
    this.implied = undefined;
    this.helpGroupHeading = undefined; // soft initialised when option added to command
  }

  /**
   * Set the default value, and optionally supply the description to be displayed in the help.
   *
   * @param {*} value
   * @param {string} [description]
   * @return {Option}
   */

  default(value, description) {
    this.defaultValue = value;
    this.defaultValueDescription = description;
    return this;
  }

  /**
   * Preset to use when option used without option-argument, especially optional but also boolean and negated.
   * The custom processing (parseArg) is called.
   *
   * @example
   * new Option('--color').default('GREYSCALE').preset('RGB');
   * new Option('--donate [amount]').preset('20').argParser(parseFloat);
   *
   * @param {*} arg
   * @return {Option}
   */

  preset(arg) {
    this.presetArg = arg;
    return this;
  }

  /**
   * Add option name(s) that conflict with this option.
   * An error will be displayed if conflicting options are found during parsing.
   *
   * @example
   * new Option('--rgb').conflicts('cmyk');
   * new Option('--js').conflicts(['ts', 'jsx']);
   *
   * @param {(string | string[])} names
   * @return {Option}
   */

  conflicts(names) {
    this.conflictsWith = this.conflictsWith.concat(names);
    return this;
  }

  /**
   * Specify implied option values for when this option is set and the implied options are not.
   *
   * The custom processing (parseArg) is not called on the implied values.
   *
   * @example
   * program
   *   .addOption(new Option('--log', 'write logging information to file'))
   *   .addOption(new Option('--trace', 'log extra details').implies({ log: 'trace.txt' }));
   *
   * @param {object} impliedOptionValues
   * @return {Option}
   */
  implies(impliedOptionValues) {
    let newImplied = impliedOptionValues;
    if (typeof impliedOptionValues === 'string') {
      // string is not documented, but easy mistake and we can do what user probably intended.
      newImplied = { [impliedOptionValues]: true };
    }
    this.implied = Object.assign(this.implied || {}, newImplied);
    return this;
  }

  /**
   * Set environment variable to check for option value.
   *
   * An environment variable is only used if when processed the current option value is
   * undefined, or the source of the current value is 'default' or 'config' or 'env'.
   *
   * @param {string} name
   * @return {Option}
   */

  env(name) {
    this.envVar = name;
    return this;
  }

  /**
   * Set the custom handler for processing CLI option arguments into option values.
   *
   * @param {Function} [fn]
   * @return {Option}
   */

  argParser(fn) {
    this.parseArg = fn;
    return this;
  }

  /**
   * Whether the option is mandatory and must have a value after parsing.
   *
   * @param {boolean} [mandatory=true]
   * @return {Option}
   */

  makeOptionMandatory(mandatory = true) {
    this.mandatory = !!mandatory;
    return this;
  }

  /**
   * Hide option in help.
   *
   * @param {boolean} [hide=true]
   * @return {Option}
   */

  hideHelp(hide = true) {
    this.hidden = !!hide;
    return this;
  }

  /**
   * @package
   */

  _collectValue(value, previous) {
    if (previous === this.defaultValue || !Array.isArray(previous)) {
      return [value];
    }

    previous.push(value);
    return previous;
  }

  /**
   * Only allow option value to be one of choices.
   *
   * @param {string[]} values
   * @return {Option}
   */

  choices(values) {
    this.argChoices = values.slice();
    this.parseArg = (arg, previous) => {
      if (!this.argChoices.includes(arg)) {
        throw new InvalidArgumentError(
          `Allowed choices are ${this.argChoices.join(', ')}.`,
        );
      }
      if (this.variadic) {
        return this._collectValue(arg, previous);
      }
      return arg;
    };
    return this;
  }

  /**
   * Return option name.
   *
   * @return {string}
   */

  name() {
    if (this.long) {
      return this.long.replace(/^--/, '');
    }
    return this.short.replace(/^-/, '');
  }

  /**
   * Return option name, in a camelcase format that can be used
   * as an object attribute key.
   *
   * @return {string}
   */

  attributeName() {
    if (this.negate) {
      return camelcase(this.name().replace(/^no-/, ''));
    }
    return camelcase(this.name());
  }

  /**
   * Set the help group heading.
   *
   * @param {string} heading
   * @return {Option}
   */
  helpGroup(heading) {
    this.helpGroupHeading = heading;
    return this;
  }

  /**
   * Check if `arg` matches the short or long flag.
   *
   * @param {string} arg
   * @return {boolean}
   * @package
   */

  is(arg) {
    return this.short === arg || this.long === arg;
  }

  /**
   * Return whether a boolean option.
   *
   * Options are one of boolean, negated, required argument, or optional argument.
   *
   * @return {boolean}
   * @package
   */

  isBoolean() {
    return !this.required && !this.optional && !this.negate;
  }
}

/**
 * This class is to make it easier to work with dual options, without changing the existing
 * implementation. We support separate dual options for separate positive and negative options,
 * like `--build` and `--no-build`, which share a single option value. This works nicely for some
 * use cases, but is tricky for others where we want separate behaviours despite
 * the single shared option value.
 */
class DualOptions {
  /**
   * @param {Option[]} options
   */
  constructor(options) {
    this.positiveOptions = new Map();
    this.negativeOptions = new Map();
    this.dualOptions = new Set();
    options.forEach((option) => {
      if (option.negate) {
        this.negativeOptions.set(option.attributeName(), option);
      } else {
        this.positiveOptions.set(option.attributeName(), option);
      }
    });
    this.negativeOptions.forEach((value, key) => {
      if (this.positiveOptions.has(key)) {
        this.dualOptions.add(key);
      }
    });
  }

  /**
   * Did the value come from the option, and not from possible matching dual option?
   *
   * @param {*} value
   * @param {Option} option
   * @returns {boolean}
   */
  valueFromOption(value, option) {
    const optionKey = option.attributeName();
    if (!this.dualOptions.has(optionKey)) return true;

    // Use the value to deduce if (probably) came from the option.
    const preset = this.negativeOptions.get(optionKey).presetArg;
    const negativeValue = preset !== undefined ? preset : false;
    return option.negate === (negativeValue === value);
  }
}

/**
 * Convert string from kebab-case to camelCase.
 *
 * @param {string} str
 * @return {string}
 * @private
 */

function camelcase(str) {
  return str.split('-').reduce((str, word) => {
    return str + word[0].toUpperCase() + word.slice(1);
  });
}

/**
 * Split the short and long flag out of something like '-m,--mixed <value>'
 *
 * @private
 */

function splitOptionFlags(flags) {
  let shortFlag;
  let longFlag;
  // short flag, single dash and single character
  const shortFlagExp = /^-[^-]$/;
  // long flag, double dash and at least one character
  const longFlagExp = /^--[^-]/;

  const flagParts = flags.split(/[ |,]+/).concat('guard');
  // Normal is short and/or long.
  if (shortFlagExp.test(flagParts[0])) shortFlag = flagParts.shift();
  if (longFlagExp.test(flagParts[0])) longFlag = flagParts.shift();
  // Long then short. Rarely used but fine.
  if (!shortFlag && shortFlagExp.test(flagParts[0]))
    shortFlag = flagParts.shift();
  // Allow two long flags, like '--ws, --workspace'
  // This is the supported way to have a shortish option flag.
  if (!shortFlag && longFlagExp.test(flagParts[0])) {
    shortFlag = longFlag;
    longFlag = flagParts.shift();
  }

  // Check for unprocessed flag. Fail noisily rather than silently ignore.
  if (flagParts[0].startsWith('-')) {
    const unsupportedFlag = flagParts[0];
    const baseError = `option creation failed due to '${unsupportedFlag}' in option flags '${flags}'`;
    if (/^-[^-][^-]/.test(unsupportedFlag))
      throw new Error(
        `${baseError}
- a short flag is a single dash and a single character
  - either use a single dash and a single character (for a short flag)
  - or use a double dash for a long option (and can have two, like '--ws, --workspace')`,
      );
    if (shortFlagExp.test(unsupportedFlag))
      throw new Error(`${baseError}
- too many short flags`);
    if (longFlagExp.test(unsupportedFlag))
      throw new Error(`${baseError}
- too many long flags`);

    throw new Error(`${baseError}
- unrecognised flag format`);
  }
  if (shortFlag === undefined && longFlag === undefined)
    throw new Error(
      `option creation failed due to no flags found in '${flags}'.`,
    );

  return { shortFlag, longFlag };
}

exports.Option = Option;
exports.DualOptions = DualOptions;


/***/ }),

/***/ 5030:
/***/ ((__unused_webpack_module, exports) => {

const maxDistance = 3;

function editDistance(a, b) {
  // https://en.wikipedia.org/wiki/Damerau–Levenshtein_distance
  // Calculating optimal string alignment distance, no substring is edited more than once.
  // (Simple implementation.)

  // Quick early exit, return worst case.
  if (Math.abs(a.length - b.length) > maxDistance)
    return Math.max(a.length, b.length);

  // distance between prefix substrings of a and b
  const d = [];

  // pure deletions turn a into empty string
  for (let i = 0; i <= a.length; i++) {
    d[i] = [i];
  }
  // pure insertions turn empty string into b
  for (let j = 0; j <= b.length; j++) {
    d[0][j] = j;
  }

  // fill matrix
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      let cost = 1;
      if (a[i - 1] === b[j - 1]) {
        cost = 0;
      } else {
        cost = 1;
      }
      d[i][j] = Math.min(
        d[i - 1][j] + 1, // deletion
        d[i][j - 1] + 1, // insertion
        d[i - 1][j - 1] + cost, // substitution
      );
      // transposition
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }

  return d[a.length][b.length];
}

/**
 * Find close matches, restricted to same number of edits.
 *
 * @param {string} word
 * @param {string[]} candidates
 * @returns {string}
 */

function suggestSimilar(word, candidates) {
  if (!candidates || candidates.length === 0) return '';
  // remove possible duplicates
  candidates = Array.from(new Set(candidates));

  const searchingOptions = word.startsWith('--');
  if (searchingOptions) {
    word = word.slice(2);
    candidates = candidates.map((candidate) => candidate.slice(2));
  }

  let similar = [];
  let bestDistance = maxDistance;
  const minSimilarity = 0.4;
  candidates.forEach((candidate) => {
    if (candidate.length <= 1) return; // no one character guesses

    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    const similarity = (length - distance) / length;
    if (similarity > minSimilarity) {
      if (distance < bestDistance) {
        // better edit distance, throw away previous worse matches
        bestDistance = distance;
        similar = [candidate];
      } else if (distance === bestDistance) {
        similar.push(candidate);
      }
    }
  });

  similar.sort((a, b) => a.localeCompare(b));
  if (searchingOptions) {
    similar = similar.map((candidate) => `--${candidate}`);
  }

  if (similar.length > 1) {
    return `\n(Did you mean one of ${similar.join(', ')}?)`;
  }
  if (similar.length === 1) {
    return `\n(Did you mean ${similar[0]}?)`;
  }
  return '';
}

exports.suggestSimilar = suggestSimilar;


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: external "node:v8"
const external_node_v8_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:v8");
;// CONCATENATED MODULE: ./src/engine/memory.ts
// Imported first by both entry points (the action, the CLI). A command may print gigabytes: each of its
// lines is a short-lived string, and V8 would grow its young generation to tens of megabytes to hold
// them between collections, about doubling the step's peak (ADR 0007). Keeping the young generation at its
// start size bounds the step's memory; collections stay cheap.

external_node_v8_namespaceObject.setFlagsFromString('--semi-space-growth-factor=1');
/** The young generation's size now (V8's `new_space`). */
function youngGenerationBytes() {
    return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

// EXTERNAL MODULE: ./node_modules/commander/index.js
var commander = __nccwpck_require__(8909);
;// CONCATENATED MODULE: ./node_modules/commander/esm.mjs


// wrapper to provide named exports for ESM.
const {
  /* program */ "DM": program,
  /* createCommand */ "gu": createCommand,
  /* createArgument */ "er": createArgument,
  /* createOption */ "Ww": createOption,
  /* CommanderError */ "b7": CommanderError,
  /* InvalidArgumentError */ "Di": InvalidArgumentError,
  /* InvalidOptionArgumentError */ "a2": InvalidOptionArgumentError, // deprecated old name
  /* Command */ "uB": Command,
  /* Argument */ "ef": Argument,
  /* Option */ "c$": Option,
  /* Help */ "_V": Help,
} = commander;

;// CONCATENATED MODULE: ./src/action-defaults.ts
// Generated from action.yml by scripts/action-defaults.mjs: do not edit. The inputs, written once.
/** Every input, in action.yml's order: the CLI's options are made of them. */
const ACTION_INPUTS = {
    "mode": { "description": "`run` creates or reuses a sandbox and runs `command` in it; `reap` removes stale sandboxes.", "default": "run" },
    "command": { "description": "Command to run in the sandbox with `sh -c`, working directory = the worktree. Required in run mode.", "default": "" },
    "image": { "description": "Container image of the command, with `sh` and `git` (and `setpriv` or `chroot` for volume sandboxes). Reap mode does not use it: its helpers run the runner's own programs.", "default": "buildpack-deps:bookworm-scm" },
    "engine": { "description": "Container engine: `docker`, or `podman` (same CLI, volumes and labels; rootful Podman may need `default_ulimits = []` in a containers.conf named by CONTAINERS_CONF).", "default": "docker" },
    "isolation": { "description": "`container`: the worktree lives in a Docker named volume; `disk`: under `worktree-root` on the host.", "default": "container" },
    "branch": { "description": "Branch for the sandbox: checked out when it exists (locally or on origin), created from `base` when new. Empty: a transient `exploration-<8 hex>` sandbox on a detached HEAD.", "default": "" },
    "base": { "description": "Start point for a new branch or a transient sandbox. Default: the parent repository HEAD.", "default": "" },
    "repository-path": { "description": "The parent repository. Default: $GITHUB_WORKSPACE, else the working directory. A linked worktree is resolved to its parent.", "default": "" },
    "worktree-root": { "description": "Root of disk sandboxes (`<root>/<project>/<sandbox>`). Default: $XDG_CACHE_HOME/worktree-sandbox/worktrees (~/.cache/... when unset); when the action runs in a container (a container job, an ARC runner), `<runner work folder>/_worktree-sandbox/worktrees`, which the engine can see.", "default": "" },
    "volume-prefix": { "description": "Prefix of sandbox volume names: `<prefix>-<project>-<sandbox>`.", "default": "worktree-sandbox" },
    "cleanup": { "description": "Post step: `auto` removes a transient sandbox that holds no work and keeps everything else; `always` removes it (uncommitted work saved as a patch under RUNNER_TEMP first); `never` keeps it.", "default": "auto" },
    "env": { "description": "Variables for the container, one per line: `NAME` (taken from the step environment) or `NAME=value`. Nothing else of the runner environment enters the container.", "default": "" },
    "timeout-minutes": { "description": "Stop the command after this many minutes (a positive number; 0 = no limit but the job's).", "default": "0" },
    "lock-timeout-minutes": { "description": "How long a run waits for another run that is using the same sandbox (the same branch) before it fails.", "default": "10" },
    "allow-failure": { "description": "`true`: a non-zero exit of the command is reported but does not fail the step.", "default": "false" },
    "push": { "description": "`true`: commit what is left uncommitted and push the sandbox branch to origin (never forced).", "default": "false" },
    "commit-message": { "description": "Message of the commit made with `push: true`.", "default": "chore: changes made in worktree-sandbox" },
    "secret-scan": { "description": "Before a push, a saved patch or a posted reply, the lines the run adds, its commits as git stores them (author, committer, every header, the message's bytes), the path names it adds and the reply are scanned for `token`, the values of `credentials`, the values of `env` entries named `*_KEY`, `*_TOKEN`, `*_SECRET` or `*_PASSWORD`, and well-known credential formats (secretlint's recommended rules). `block`: a finding stops it and fails the step, naming the place and the rule, never the value; the sandbox keeps the work. `warn`: findings are warnings. `off`: no scan. See [docs/secret-scan.md](docs/secret-scan.md).", "default": "block" },
    "author": { "description": "Author of the commit made with `push: true`, as `Name <email>`. Empty: `github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>` (on GitHub Enterprise Server: `github-actions[bot] <github-actions[bot]@users.noreply.HOST>`, HOST from GITHUB_SERVER_URL).", "default": "" },
    "committer": { "description": "Committer of the commit made with `push: true`, as `Name <email>`. Empty: the same bot identity as `author`. A push whose head commit has this committer e-mail starts no pull-request bot run.", "default": "" },
    "pull-request": { "description": "`true` (needs `push: true`): a pushed branch that is not yet the head of an open pull request gets one, against `base` (a branch name) or else the default branch. A pull request this action opened is updated (title, body, labels) by later runs; one opened by someone else is left as it is.", "default": "false" },
    "pull-request-title": { "description": "Title of the pull request opened with `pull-request: true`.", "default": "Changes made in worktree-sandbox" },
    "pull-request-body": { "description": "Body (Markdown) of the pull request opened with `pull-request: true`.", "default": "Automated changes made by worktree-sandbox." },
    "pull-request-draft": { "description": "`true`: the pull request is opened as a draft.", "default": "false" },
    "pull-request-labels": { "description": "Labels for the pull request, separated by commas or newlines.", "default": "" },
    "token": { "description": "Token for the GitHub API and for pushing. It never enters the container." },
    "trigger": { "description": "Pull-request bot: the command word that starts a run from a pull-request comment (e.g. `/fix`): the comment must start with it, whole (`/fixed` is not `/fix`). The rest of the comment is handed to the command as data ($SANDBOX_PROMPT_FILE, output `args`; where it was made in $SANDBOX_CONTEXT_FILE). Needed for `issue_comment`, `pull_request_review_comment` and `pull_request_review` (the review's body) events.", "default": "" },
    "label-trigger": { "description": "Pull-request bot: a label (such as `fix-me`) that, added to an issue (`issues` event, `labeled`), makes a pull request of it. The label is removed when the run ends, so that labelling again starts another run.", "default": "" },
    "assignee-trigger": { "description": "Pull-request bot: a login (such as `fix-bot`) that, assigned to an issue (`issues` event, `assigned`), makes a pull request of it.", "default": "" },
    "issue-branch-prefix": { "description": "Pull-request bot: an issue is worked on in the branch of this prefix and its number (made from `base`, else the checked-out HEAD; continued when it exists on origin).", "default": "worktree-sandbox/issue-" },
    "allowed-associations": { "description": "Pull-request bot: author associations that may start a run, comma or space separated (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN, NONE). Every run a person starts also needs write, maintain or admin permission on the repository, checked through the API (a run gets the secrets named in `env`).", "default": "OWNER,MEMBER,COLLABORATOR" },
    "allowed-bots": { "description": "Pull-request bot: bot accounts that may start runs (e.g. `dependabot`, `renovate[bot]`). Every other bot, this action's own account included, is ignored.", "default": "" },
    "pr-number": { "description": "Pull-request bot, `workflow_dispatch` only: the pull request to work on. Giving it asks for the bot on that event.", "default": "" },
    "pull-request-bot": { "description": "`true`: on `pull_request`, `pull_request_target` and `push` events the action is the pull-request bot (it works on the pull request's head or the pushed branch, checks who asked, and reports on the pull request). `false`: those events are plain run mode, as every other event. Comment events ask for the bot with `trigger`.", "default": "false" },
    "memory": { "description": "Memory limit of the container (Docker syntax, e.g. `2g`). Empty: no limit.", "default": "" },
    "cpus": { "description": "CPU limit of the container (e.g. `1.5`). Empty: no limit.", "default": "" },
    "pids-limit": { "description": "Maximum number of processes in the container.", "default": "4096" },
    "network": { "description": "`bridge` (default: any host), `none` (no network at all), `audit` (any host, through the proxy, every host recorded and an allow-list proposed), or an allow-list: host names, `*.example.com`, an optional `:port` (default 443 and 80) and presets (`@github`, `@npm`, `@pypi`, `@debian`, `@anthropic`, `@openai`, `@gemini`), one per line or separated by commas. With an allow-list or `audit` the command reaches nothing but the proxy (docs/network.md).", "default": "bridge" },
    "credentials": { "description": "With an allow-list or `audit`: one `<host> <Header-Name>: <value>` a line (e.g. `api.anthropic.com x-api-key: <a secret>`). The proxy sets that header on requests to that host only, over TLS only (`http://<host>[:port] ...` sends it in clear, for an internal service); the value never enters the container. The host is allowed implicitly.", "default": "" },
    "max-model-requests": { "description": "With an allow-list or `audit`: the most requests the command may make to model APIs the proxy sees in clear (hosts in `credentials`, plain-HTTP base URLs), over the whole run; past it the proxy answers 429 in the API's own format. `0`: no limit.", "default": "0" },
    "max-model-tokens": { "description": "With an allow-list or `audit`: the most input plus output tokens those answers may report over the whole run; once reached, further model requests get 429. `0`: no limit.", "default": "0" },
    "read-only-rootfs": { "description": "`true`: the container root filesystem is read-only (a tmpfs at /tmp).", "default": "false" },
    "max-import-size": { "description": "The most the changes of one run may weigh when they come back from the sandbox (the git bundle, e.g. `512m`, `2g`). Larger: nothing is imported, the step fails and the sandbox is kept.", "default": "1g" },
    "headless-expiry-days": { "description": "Reap mode: whole days (≥ 1) of inactivity after which a transient `exploration-*` sandbox is stale.", "default": "30" },
    "branch-expiry-days": { "description": "Reap mode: whole days (≥ 1) of inactivity after which a persistent (branch) sandbox is stale.", "default": "90" },
    "orphan-expiry-days": { "description": "Reap mode: whole days (≥ `branch-expiry-days`) after which a sandbox whose parent repository is gone or unreadable is removed.", "default": "90" },
    "dry-run": { "description": "Reap mode: `true` decides and reports everything and removes nothing.", "default": "false" },
    "max-removals": { "description": "Reap mode: at most this many removals in one run, oldest first (0 = no limit); the rest waits for the next run.", "default": "0" },
    "force": { "description": "Reap mode: `true` removes stale sandboxes that hold work too (never those in use); with `archive-dir`, the work is saved there first.", "default": "false" },
    "archive-dir": { "description": "Reap mode: folder where the work of forced removals (a patch and a bundle) and the files of orphans (a .tar.gz) are saved before removal. Empty: nothing is archived.", "default": "" },
};
/** The inputs' defaults, for the code that runs without the runner filling them in. */
const ACTION_DEFAULTS = Object.fromEntries(Object.entries(ACTION_INPUTS).flatMap(([name, input]) => input.default === undefined ? [] : [[name, input.default]]));

;// CONCATENATED MODULE: ./package.json
const package_namespaceObject = {"rE":"1.0.0"};
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
;// CONCATENATED MODULE: ./src/sandbox/naming.ts
// Names of sandboxes, projects and volumes. Pure functions: the same branch always maps to the same
// sandbox, and two different branches never do.


const TRANSIENT_PREFIX = 'exploration-';
const SLUG_MAX = 80;
function shortHash(text, length = 8) {
    return (0,external_node_crypto_.createHash)('sha256').update(text).digest('hex').slice(0, length);
}
function transientSandboxName(random = () => (0,external_node_crypto_.randomBytes)(4)) {
    return TRANSIENT_PREFIX + random().toString('hex').slice(0, 8).padEnd(8, '0');
}
/**
 * The folder-safe slug of a branch: `/` and anything outside [A-Za-z0-9._-] become `-`. When that loses
 * information (or the name could pass for a transient sandbox, or is too long) a hash of the full branch
 * name is appended after `..`, which git forbids in branch names: so a lossy slug can never equal the
 * slug of another branch, lossy or not.
 */
function persistentSandboxName(branch) {
    let slug = branch.replace(/[^A-Za-z0-9._-]/g, '-');
    let lossy = slug !== branch;
    if (slug.toLowerCase().startsWith(TRANSIENT_PREFIX)) {
        slug = `b-${slug}`;
        lossy = true;
    }
    if (slug.length > SLUG_MAX) {
        slug = slug.slice(0, SLUG_MAX);
        lossy = true;
    }
    slug = slug.replace(/^[.-]+/, '');
    return lossy ? `${slug}..${shortHash(branch)}` : slug;
}
function classifyName(sandbox) {
    return sandbox.startsWith(TRANSIENT_PREFIX) ? 'transient' : 'persistent';
}
/** A project is the parent repository: its folder name, plus a hash of its path so two clones never share. */
function projectName(parentPath) {
    const base = external_node_path_.basename(parentPath)
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 40) || 'repo';
    return `${base}-${shortHash(parentPath, 6)}`;
}
function volumeName(prefix, project, sandbox) {
    return `${prefix}-${project}-${sandbox}`;
}
/** Where a volume sandbox's worktree is, inside every container that mounts it. */
const VOLUME_MOUNT = '/sandbox';
function diskWorktreePath(root, project, sandbox) {
    return external_node_path_.join(root, project, sandbox);
}

;// CONCATENATED MODULE: ./src/reap/retention.ts
// The retention matrix (docs/reap.md, "The retention matrix"): how long a sandbox may sit unused, decided by its name alone,
// because the name is the one signal that survives where git cannot resolve a worktree's paths.


/** action.yml's defaults (written once, there). */
const DEFAULT_RETENTION = {
    headlessExpiryDays: Number(ACTION_DEFAULTS['headless-expiry-days']),
    branchExpiryDays: Number(ACTION_DEFAULTS['branch-expiry-days']),
    orphanExpiryDays: Number(ACTION_DEFAULTS['orphan-expiry-days']),
};
function retentionClass(sandbox, orphan) {
    if (orphan)
        return 'orphan';
    return classifyName(sandbox);
}
/**
 * Days of inactivity after which a sandbox of this class is stale. An orphan is treated as persistent and
 * never expires sooner than a persistent sandbox: its expiry is its only safety margin, since no check
 * for work can run without the parent.
 */
function expiryDays(cls, policy) {
    switch (cls) {
        case 'transient':
            return policy.headlessExpiryDays;
        case 'persistent':
            return policy.branchExpiryDays;
        case 'orphan':
            return Math.max(policy.orphanExpiryDays, policy.branchExpiryDays);
    }
}
// Age is the time since the last activity. The newest of several signals counts, because a folder's own
// mtime only moves when its direct children are added, removed or renamed: edits deeper in the tree and
// git operations are seen through the worktree's index, HEAD and reflog in its admin folder instead.
const DAY_MS = 86_400_000;
/** The newest of the signals (epoch ms); undefined when none could be read. */
function lastActivity(signals) {
    let newest;
    for (const signal of signals) {
        if (signal === undefined || !Number.isFinite(signal))
            continue;
        if (newest === undefined || signal > newest)
            newest = signal;
    }
    return newest;
}
/** Whole days since `lastMs` (a time in the future counts as 0). */
function ageDays(lastMs, nowMs) {
    return Math.max(0, Math.floor((nowMs - lastMs) / DAY_MS));
}
/** Stale once unused for longer than `expiryDays`; an unknown age is never stale. */
function isExpired(lastMs, nowMs, expiryDays) {
    if (lastMs === undefined)
        return false;
    return nowMs - lastMs > expiryDays * DAY_MS;
}
/** An ISO-8601 time (e.g. the `created` label of a volume) as epoch ms; undefined when it is not one. */
function parseTimestamp(text) {
    if (!text || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.test(text))
        return undefined;
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? ms : undefined;
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: ./src/engine/host-paths.ts
var host_paths = __nccwpck_require__(6387);
// EXTERNAL MODULE: ./src/engine/engine.ts + 2 modules
var engine_engine = __nccwpck_require__(1665);
;// CONCATENATED MODULE: ./src/settings/inputs.ts
// Reading one input: the runner's text (or action.yml's default) into a typed value, or an InputError that
// names the input and what it accepts. Pure.


class InputError extends Error {
    constructor(input, value, accepted) {
        super(`Invalid input '${input}': ${JSON.stringify(value)}. Accepted: ${accepted}.`);
        this.name = 'InputError';
    }
}
/**
 * An input as the runner hands it over: empty means action.yml's default (the runner fills defaults in
 * for the action; the CLI and tests get them here, from the one place they are written).
 */
function withDefaults(read) {
    return (name) => {
        const raw = read(name);
        return raw.trim() ? raw : (ACTION_DEFAULTS[name] ?? '');
    };
}
/** The inputs that take one of a few words, written once: the settings check them, the CLI offers them. */
const CHOICES = {
    mode: ['run', 'reap'],
    engine: ['docker', 'podman'],
    isolation: ['container', 'disk'],
    cleanup: ['auto', 'always', 'never'],
    'secret-scan': ['block', 'warn', 'off'],
};
function oneOf(read, name) {
    const raw = read(name).trim();
    const found = CHOICES[name].find((v) => v === raw.toLowerCase());
    if (!found)
        throw new InputError(name, raw, CHOICES[name].join(', '));
    return found;
}
function inputs_boolean(read, name) {
    const raw = read(name).trim();
    if (!raw)
        return false;
    if (/^true$/i.test(raw))
        return true;
    if (/^false$/i.test(raw))
        return false;
    throw new InputError(name, raw, 'true or false');
}
function number(read, name, rule) {
    const raw = read(name).trim();
    if (!raw)
        return 0; // an input whose default is empty: none
    const pattern = rule.integer ? /^\d+$/ : /^(\d+(\.\d+)?|\.\d+)$/;
    const value = Number(raw);
    if (!pattern.test(raw) || !Number.isFinite(value) || value < rule.min || value > 1e9) {
        const kind = rule.integer ? 'a whole number' : 'a number';
        throw new InputError(name, raw, `${kind} ≥ ${rule.min}`);
    }
    return value;
}
const UNITS = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
function size(read, name) {
    const raw = read(name).trim();
    const match = /^(\d+(?:\.\d+)?)([bkmg]?)$/i.exec(raw);
    const value = match ? Math.floor(Number(match[1]) * UNITS[match[2].toLowerCase()]) : NaN;
    if (!match || !Number.isFinite(value) || value < 1024)
        throw new InputError(name, raw, 'a size of at least 1k, such as 512m or 2g');
    return value;
}
function optionalPattern(read, name, pattern, accepted) {
    const raw = read(name).trim();
    if (!raw)
        return undefined;
    if (!pattern.test(raw))
        throw new InputError(name, raw, accepted);
    return raw;
}
function list(read, name) {
    const raw = read(name).trim();
    if (!raw)
        return [];
    return raw
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
}
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;
function pathInput(read, name) {
    const raw = read(name);
    if (!raw.trim())
        return undefined;
    if (CONTROL.test(raw))
        throw new InputError(name, raw, 'a path without control characters (newlines, tabs, NUL)');
    return external_node_path_.resolve(raw.trim());
}
/** Input `name`, trimmed, when it matches `pattern` (or is empty and `optional`). */
function matching(read, name, pattern, accepted, optional = false) {
    const raw = read(name).trim();
    if ((optional && !raw) || pattern.test(raw))
        return raw;
    throw new InputError(name, raw, accepted);
}
const inputs_image = (read) => matching(read, 'image', /^(?=.{1,512}$)[A-Za-z0-9][A-Za-z0-9._\-/:@]*$/, 'an image reference such as debian:bookworm or ghcr.io/owner/image:tag');
const volumePrefix = (read) => matching(read, 'volume-prefix', /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'letters, digits, _ . - (starting with a letter or digit, at most 63 characters)');
/** A first, pure check of a branch name; git's own rules are applied by `validateBranchNames`. */
function branchInput(read, name) {
    const raw = read(name);
    const value = raw.trim();
    if (!value)
        return '';
    if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255 || value.includes('\ufffd')) {
        throw new InputError(name, raw, "a branch name valid for 'git check-ref-format --branch' (at most 255 characters)");
    }
    return value.replace(/^refs\/heads\//, '');
}
function revisionInput(read, name) {
    const raw = read(name);
    const value = raw.trim();
    if (!value)
        return '';
    if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255) {
        throw new InputError(name, raw, 'a commit, branch or tag name');
    }
    return value;
}
const triggerCommand = (read) => matching(read, 'trigger', /^\/?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'one word such as /fix', true);
/** `label-trigger`: a label's name as GitHub allows it (one line, at most 50 characters). */
function labelTrigger(read) {
    const raw = read('label-trigger').trim();
    if (raw && (CONTROL.test(raw) || raw.length > 50))
        throw new InputError('label-trigger', raw, 'a label name of at most 50 characters, such as fix-me');
    return raw;
}
/** `assignee-trigger`: a GitHub login (a bot's with or without `[bot]`). */
const assigneeTrigger = (read) => matching(read, 'assignee-trigger', /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/, 'a GitHub login such as fix-bot', true);
/** `issue-branch-prefix`: the start of a branch name (the issue's number completes it). */
function issueBranchPrefix(read) {
    const raw = read('issue-branch-prefix').trim();
    if (!raw ||
        raw.length > 200 ||
        raw.startsWith('-') ||
        raw.startsWith('/') ||
        CONTROL.test(raw) ||
        /[\s~^:?*[\\]|\.\.|@\{|\/\/|\.lock\//.test(raw))
        throw new InputError('issue-branch-prefix', raw, 'the start of a branch name (at most 200 characters, no spaces, no ~ ^ : ? * [ \\ or ..), such as worktree-sandbox/issue-');
    return raw;
}

;// CONCATENATED MODULE: ./src/settings/env-input.ts
// The `env` input: the variables the command's container gets from the step, and nothing else. Pure.


const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables the action sets itself in the container; a user entry may not override them. */
const RESERVED_ENV = [
    'SANDBOX_NAME',
    'SANDBOX_KIND',
    'SANDBOX_BRANCH',
    'SANDBOX_WORKTREE',
    'SANDBOX_PARENT',
    'SANDBOX_PROMPT_FILE',
];
function envEntries(read, env) {
    const entries = [];
    for (const line of read('env').split(/\r?\n/)) {
        if (!line.trim() || line.trim().startsWith('#'))
            continue;
        const eq = line.indexOf('=');
        const name = (eq < 0 ? line : line.slice(0, eq)).trim();
        if (!ENV_NAME.test(name))
            throw new InputError('env', line, 'lines of NAME or NAME=value, NAME made of letters, digits and _');
        if (RESERVED_ENV.includes(name))
            throw new InputError('env', line, `a name other than ${RESERVED_ENV.join(', ')} (set by the action)`);
        if (entries.some((e) => e.name === name))
            throw new InputError('env', line, 'each NAME at most once');
        const value = eq < 0 ? (env[name] ?? '') : line.slice(eq + 1);
        // A value of several lines reaches the container by name through the engine CLI's environment, where
        // it may never stand in for one of the CLI's own variables.
        if (/[\r\n]/.test(value) && engine_engine/* ENGINE_ENV */.X4.includes(name))
            throw new InputError('env', name, `a name other than ${engine_engine/* ENGINE_ENV */.X4.join(', ')} for a value of several lines`);
        entries.push({ name, value });
    }
    return entries;
}

;// CONCATENATED MODULE: ./src/settings/identity.ts
// Who commits: a git identity written `Name <email>`, as git and create-pull-request write it. Pure.
// The default is the Actions bot. Its no-reply address lives on the server's own `users.noreply` domain,
// so it is derived from GITHUB_SERVER_URL; the numeric id prefix is the bot's account id on github.com
// only, and is left out elsewhere (an address without it is still the bot's).
const BOT_LOGIN = 'github-actions[bot]';
const BOT_ID_ON_GITHUB_COM = 41898282;
function defaultBotIdentity(serverUrl) {
    const host = hostOf(serverUrl);
    const local = host === 'github.com' ? `${BOT_ID_ON_GITHUB_COM}+${BOT_LOGIN}` : BOT_LOGIN;
    return { name: BOT_LOGIN, email: `${local}@users.noreply.${host}` };
}
function hostOf(serverUrl) {
    try {
        const host = new URL(serverUrl || 'https://github.com').hostname.toLowerCase();
        return host || 'github.com';
    }
    catch {
        return 'github.com';
    }
}
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const identity_CONTROL = /[\u0000-\u001f\u007f]/;
/** `Name <email>`; undefined when the text is not one (no name, no address, stray brackets, newlines). */
function parseIdentity(text) {
    const match = /^([^<>]+?)\s*<([^<>\s]+)>$/.exec(text.trim());
    if (!match || identity_CONTROL.test(text))
        return undefined;
    const [, name, email] = match;
    if (!/^[^@]+@[^@]+$/.test(email) || name.length > 200 || email.length > 254)
        return undefined;
    return { name: name.trim(), email };
}
function formatIdentity(identity) {
    return `${identity.name} <${identity.email}>`;
}

// EXTERNAL MODULE: ./src/network/policy.ts + 1 modules
var network_policy = __nccwpck_require__(3977);
;// CONCATENATED MODULE: ./src/settings/network-input.ts
// `network`, `credentials` and the model budget, read together: the allow-list, its presets, the
// credentials the proxy sets and the limits it enforces (src/network/policy.ts parses; this turns its
// refusals into InputErrors naming the input). The budget is the proxy's: without one, it is refused.


const LIMITS = ['max-model-requests', 'max-model-tokens'];
function networkInput(read) {
    let policy;
    try {
        policy = (0,network_policy/* parseCredentials */.gu)(read('credentials'), (0,network_policy/* parseNetwork */.MO)(read('network')));
    }
    catch (error) {
        if (error instanceof network_policy/* PolicyError */.pn)
            throw new InputError(error.input, error.value, error.accepted);
        throw error;
    }
    const [maxRequests, maxTokens] = LIMITS.map((name) => number(read, name, { min: 0, integer: true }));
    if (maxRequests === 0 && maxTokens === 0)
        return policy;
    if (policy.mode === 'bridge' || policy.mode === 'none') {
        const set = maxRequests > 0 ? LIMITS[0] : LIMITS[1];
        throw new InputError(set, read(set).trim(), `0 (no limit), or a limit with an allow-list or audit in network (it is ${policy.mode}): the proxy is what counts`);
    }
    return { ...policy, modelLimits: { maxRequests, maxTokens } };
}

;// CONCATENATED MODULE: ./src/settings/pull-request-input.ts
// The pull-request inputs (`pull-request`, its title, body, draft and labels). Pure.

function pullRequestInputs(read) {
    const open = inputs_boolean(read, 'pull-request');
    if (open && !inputs_boolean(read, 'push'))
        throw new InputError('pull-request', 'true', 'true only with push: true (a pull request needs a pushed branch)');
    const title = read('pull-request-title').trim();
    if (CONTROL.test(title) || title.length > 256)
        throw new InputError('pull-request-title', title, 'one line of at most 256 characters');
    const body = read('pull-request-body');
    if (body.length > 60000)
        throw new InputError('pull-request-body', `${body.slice(0, 40)}...`, 'at most 60000 characters');
    const labels = read('pull-request-labels')
        .split(/[,\n]/)
        .map((l) => l.trim())
        .filter(Boolean);
    for (const label of labels)
        if (CONTROL.test(label) || label.length > 50)
            throw new InputError('pull-request-labels', label, 'label names of at most 50 characters, separated by commas or newlines');
    return {
        open,
        title,
        body,
        draft: inputs_boolean(read, 'pull-request-draft'),
        labels: [...new Set(labels)],
    };
}

;// CONCATENATED MODULE: ./src/settings/settings.ts
// Every input is read and validated here, once, into typed settings. Nothing past this module reads an
// input. An error names the input and what it accepts, and is raised before anything is created.










const ASSOCIATIONS = [
    'OWNER',
    'MEMBER',
    'COLLABORATOR',
    'CONTRIBUTOR',
    'FIRST_TIMER',
    'FIRST_TIME_CONTRIBUTOR',
    'MANNEQUIN',
    'NONE',
];
function parseSettings(given, env = process.env) {
    const read = withDefaults(given);
    const mode = oneOf(read, 'mode');
    const common = {
        engine: oneOf(read, 'engine'),
        worktreeRoot: pathInput(read, 'worktree-root') ?? defaultWorktreeRoot(env),
        volumePrefix: volumePrefix(read),
        token: read('token').trim(),
    };
    return mode === 'run' ? { ...common, ...parseRun(read, env) } : { ...common, ...parseReap(read) };
}
function parseRun(read, env) {
    const command = read('command');
    if (!command.trim())
        throw new InputError('command', command, 'a shell command (required in run mode)');
    const network = networkInput(read);
    return {
        mode: 'run',
        command,
        image: inputs_image(read),
        isolation: oneOf(read, 'isolation'),
        branch: branchInput(read, 'branch'),
        base: revisionInput(read, 'base'),
        repositoryPath: pathInput(read, 'repository-path') ?? external_node_path_.resolve(env.GITHUB_WORKSPACE || process.cwd()),
        cleanup: oneOf(read, 'cleanup'),
        env: envEntries(read, env),
        timeoutMinutes: number(read, 'timeout-minutes', { min: 0, integer: false }),
        lockTimeoutMinutes: number(read, 'lock-timeout-minutes', { min: 0, integer: false }),
        allowFailure: inputs_boolean(read, 'allow-failure'),
        push: inputs_boolean(read, 'push'),
        commitMessage: read('commit-message').trim(),
        secretScan: oneOf(read, 'secret-scan'),
        limits: {
            memory: optionalPattern(read, 'memory', /^\d+(\.\d+)?[bkmg]?$/i, 'a size such as 512m or 2g'),
            cpus: optionalPattern(read, 'cpus', /^(\d+(\.\d+)?|\.\d+)$/, 'a positive number such as 1.5'),
            pidsLimit: number(read, 'pids-limit', { min: 1, integer: true }),
            network: network.mode === 'bridge' ? 'bridge' : 'none',
            readOnlyRootfs: inputs_boolean(read, 'read-only-rootfs'),
        },
        network,
        maxImportBytes: size(read, 'max-import-size'),
        author: identity(read, 'author', env),
        committer: identity(read, 'committer', env),
        trigger: {
            command: triggerCommand(read),
            allowedAssociations: list(read, 'allowed-associations').map((a) => {
                const upper = a.toUpperCase();
                if (!ASSOCIATIONS.includes(upper))
                    throw new InputError('allowed-associations', a, ASSOCIATIONS.join(', '));
                return upper;
            }),
            allowedBots: list(read, 'allowed-bots'),
            prNumber: number(read, 'pr-number', { min: 1, integer: true }),
            pullRequestBot: inputs_boolean(read, 'pull-request-bot'),
            labelTrigger: labelTrigger(read),
            assigneeTrigger: assigneeTrigger(read),
            issueBranchPrefix: issueBranchPrefix(read),
        },
        pullRequest: pullRequestInputs(read),
    };
}
function identity(read, name, env) {
    const raw = read(name);
    if (!raw.trim())
        return defaultBotIdentity(env.GITHUB_SERVER_URL);
    const parsed = parseIdentity(raw);
    if (!parsed)
        throw new InputError(name, raw, 'Name <email>, such as Fix Bot <fix-bot@example.com>');
    return parsed;
}
function parseReap(read) {
    const days = (name) => number(read, name, { min: 1, integer: true });
    const branchExpiryDays = days('branch-expiry-days');
    const orphanExpiryDays = days('orphan-expiry-days');
    if (orphanExpiryDays < branchExpiryDays) {
        throw new InputError('orphan-expiry-days', String(orphanExpiryDays), `whole days ≥ branch-expiry-days (${branchExpiryDays}): orphans are never removed sooner than persistent sandboxes`);
    }
    return {
        mode: 'reap',
        headlessExpiryDays: days('headless-expiry-days'),
        branchExpiryDays,
        orphanExpiryDays,
        dryRun: inputs_boolean(read, 'dry-run'),
        maxRemovals: number(read, 'max-removals', { min: 0, integer: true }),
        force: inputs_boolean(read, 'force'),
        archiveDir: pathInput(read, 'archive-dir') ?? '',
        image: inputs_image(read),
    };
}
/**
 * The default root of disk sandboxes: the user's cache folder; but when the action runs in a container
 * (a job container, a runner pod beside a Docker-in-Docker engine), that folder is the container's own and
 * the engine does not see it (or, in a job container, it lies under RUNNER_TEMP, emptied after each job):
 * then a folder beside the workspaces in the runner's work folder (`<work>/_worktree-sandbox/worktrees`,
 * RUNNER_TEMP being `<work>/_temp`), which the engine is given and which outlives the job for the reaper.
 */
function defaultWorktreeRoot(env, inContainer = (0,host_paths/* runsInContainer */.NH)()) {
    if (inContainer && env.RUNNER_TEMP && external_node_path_.isAbsolute(env.RUNNER_TEMP))
        return external_node_path_.join(external_node_path_.dirname(external_node_path_.resolve(env.RUNNER_TEMP)), '_worktree-sandbox', 'worktrees');
    const cache = env.XDG_CACHE_HOME && external_node_path_.isAbsolute(env.XDG_CACHE_HOME)
        ? env.XDG_CACHE_HOME
        : external_node_path_.join(env.HOME || external_node_os_.homedir(), '.cache');
    return external_node_path_.join(cache, 'worktree-sandbox', 'worktrees');
}
/** Applies git's own branch-name rules (`git check-ref-format --branch`) once git is at hand. */
async function validateBranchNames(settings, isValid) {
    if (settings.branch && !(await isValid(settings.branch))) {
        throw new InputError('branch', settings.branch, "a branch name valid for 'git check-ref-format --branch'");
    }
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
;// CONCATENATED MODULE: ./src/engine/git-commands.ts
/** An object name as git prints it: SHA-1 (40 hex digits) or SHA-256 (64). */
const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/**
 * For every diff-like command (diff, format-patch): no external diff or textconv program that a
 * repository's attributes could name, and no rename detection (its memory grows with the square of the
 * paths).
 */
const NO_EXTERNAL_DIFF = ['--no-ext-diff', '--no-textconv', '--no-renames'];

// EXTERNAL MODULE: ./src/engine/container-args.ts
var container_args = __nccwpck_require__(5011);
// EXTERNAL MODULE: ./src/engine/engine-error.ts
var engine_error = __nccwpck_require__(389);
// EXTERNAL MODULE: ./src/engine/labels.ts
var engine_labels = __nccwpck_require__(9667);
;// CONCATENATED MODULE: ./src/engine/engine-probe.ts
// Verify, don't assume: before a run makes or uses a sandbox, prove that the engine sees the folders the
// action mounts where the action sees them. In each folder the action writes a file with a random name;
// the engine is asked to create (not start) a helper container that binds each file. An engine refuses
// to create a container whose bind source it does not find, so creation succeeds only when it finds
// every file on its side: the same folder, not one that merely has the same name (a remote engine, a
// Docker-in-Docker engine that does not share it, a translation that points elsewhere). Creating costs
// one short engine call; starting the helper would cost a container start and prove nothing more. A
// container the run creates anyway can carry the files instead of a helper (plantProbe): the engine then
// checks them when it creates that container, before anything in it starts, and no helper is needed.
// Everything the probe made (files, folders it had to make, the helper) is removed, whatever happens.







/** How long the engine may take to create the probe's helper before the run stops. */
const PROBE_TIMEOUT_MS = 30_000;
const PROBE_FILE_PREFIX = '.worktree-sandbox-probe-';
/**
 * The engine's address when it is on another machine, for a person; undefined for a socket or a loopback
 * address (a Docker-in-Docker sidecar shares the runner pod's network, and may well share its folders).
 */
function remoteEngine(env = process.env) {
    const host = env.DOCKER_HOST || env.CONTAINER_HOST || '';
    const match = /^(tcp|ssh|https?):\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/]*)/i.exec(host);
    if (!match)
        return undefined;
    const name = match[2].replace(/^\[|\]$/g, '');
    return /^(localhost|127\.\d+\.\d+\.\d+|::1)$/i.test(name) ? undefined : host;
}
/** The folder the engine did not see, from its own words (it names the source it looked for). Pure. */
function unseenFolder(said, probes) {
    if (!/bind source path does not exist|no such file or directory|not found|does not exist/i.test(said))
        return undefined;
    return (probes.find((p) => said.includes(p.source))?.folder ??
        (probes.length === 1 ? probes[0].folder : undefined));
}
/** What to say when the engine does not see a folder. Pure. */
function notSeenMessage(engine, folder, view, remote) {
    const where = `The ${engine} engine does not see the ${folder.what} ${folder.path} where the action sees it`;
    if (remote)
        return `${where}: it is a remote engine (${remote}), and a remote engine cannot see this runner's files. Nothing was created. Run the engine on the runner's machine (Docker-in-Docker beside the runner, sharing its work folder at the same path), or give the runner a local engine.`;
    const translated = view.kind === 'container' ? ` (looked for at ${(0,host_paths/* enginePath */.aE)(view, folder.path)} on its side)` : '';
    const inContainer = view.kind === 'container' || view.containerized
        ? ' The action runs in a container, and the engine does not share this folder with it.'
        : '';
    return `${where}${translated}.${inContainer} Nothing was created. ${folder.fix ?? host_paths/* SHARED_ROOT_FIX */.jX}.`;
}
/** Where a container sees the probe's files: on its own root file system, beside nothing of the host's. */
const PROBE_TARGET = '/.worktree-sandbox-probe';
/** A file with a random name in each folder (made with the folders above it that are missing). */
async function plantProbe(engine, folders) {
    const planted = [];
    const remove = async ({ madeToo = false } = {}) => {
        await Promise.all(planted.map((p) => promises_.rm(p.file, { force: true })));
        if (madeToo)
            await Promise.all(planted.flatMap((p) => (p.made ? [promises_.rm(p.made, { recursive: true, force: true })] : [])));
    };
    try {
        for (const folder of folders)
            planted.push(await plant(folder));
    }
    catch (error) {
        await remove({ madeToo: true });
        throw error;
    }
    return {
        files: planted.map((p) => p.file),
        mounts: planted.map((p, n) => ({
            type: 'bind',
            source: p.file,
            target: `${PROBE_TARGET}/${n}`,
            readonly: true,
        })),
        async unseen(said) {
            const view = await engine.hostView();
            const sources = planted.map((p) => ({ folder: p.folder, source: (0,host_paths/* enginePath */.aE)(view, p.file) ?? p.file }));
            const folder = unseenFolder(said, sources);
            return folder && new host_paths/* HostPathError */.mL(notSeenMessage(engine.name, folder, view, remoteEngine()));
        },
        remove,
    };
}
/**
 * Proves that the engine sees each folder where the action sees it; rejects with a HostPathError naming
 * the folder and the fix when it does not. The helper is created with `--pull never`, so a probe that
 * succeeded also proved the image there: the caller need not ask the engine about the image. When the
 * engine says the image is missing, the probe calls `imageReady` (the image check, which pulls it) and
 * asks once more (it never pulls itself); when the probe fails for anything but a folder the engine does
 * not see, the image check's error, if it has one, is the one thrown. Once it succeeded, its files are
 * removed and the helper (created, never started) stays until the caller calls `remove`, after the run:
 * that engine call then does not compete with the command container's start.
 */
async function probeEngineView(engine, image, folders, imageReady = () => Promise.resolve(), timeoutMs = PROBE_TIMEOUT_MS, 
/** Told the helper's name before the engine is asked to create it (a run saves it for its post step). */
onName) {
    const name = `worktree-sandbox-probe-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`;
    onName?.(name);
    const probe = await plantProbe(engine, folders);
    try {
        const run = await engine.runArgs({
            name,
            image,
            user: (0,container_args/* userArg */.Q6)(),
            mounts: probe.mounts,
            labels: engine_labels/* HELPER_LABELS */.vJ,
            entrypoint: 'true',
            args: [],
        });
        // The same hardened arguments as every helper, created and never started.
        const args = ['create', '--pull', 'never', ...run.slice(1)];
        let result = await createWithin(engine, name, args, timeoutMs);
        if (result.exitCode !== 0 &&
            /no such image|image not known|not found.*image|unable to find image/i.test(result.stderr)) {
            await imageReady();
            result = await createWithin(engine, name, args, timeoutMs);
        }
        if (result.exitCode === 0) {
            // The files go at once (a created helper never reads them); the helper after the run.
            await probe.remove();
            return { remove: () => engine.removeContainer(name) };
        }
        const said = (result.stderr || result.stdout).trim();
        throw (await probe.unseen(said)) ?? engine.failure(['create', 'probe'], result);
    }
    catch (error) {
        await Promise.all([engine.removeContainer(name), probe.remove({ madeToo: true })]);
        // Anything but a folder the engine does not see: the image check's words come first (an image it
        // could not pull, an engine it cannot reach or that cannot run containers), as when it runs alone.
        if (!(error instanceof host_paths/* HostPathError */.mL))
            await imageReady();
        throw error;
    }
}
/** `create`, the helper removed and the probe failed when the engine takes longer than `timeoutMs`. */
async function createWithin(engine, name, args, timeoutMs) {
    let timedOut = false;
    const timer = setTimeout(() => {
        timedOut = true;
        void engine.removeContainer(name);
    }, timeoutMs);
    try {
        // The CLI itself is killed a few seconds after the helper's removal if it has not returned by then.
        const result = await engine.exec(args, {
            limitMs: timeoutMs + 5_000,
            purpose: 'creating the engine-view probe',
        });
        if (timedOut)
            throw new engine_error/* EngineError */.NJ(`The ${engine.name} engine took longer than ${timeoutMs / 1000} s to create the helper that checks what it sees; nothing was created.`);
        return result;
    }
    finally {
        clearTimeout(timer);
    }
}
/** A file with a random name in `folder`, made with the folders above it that are missing. */
async function plant(folder) {
    const made = await promises_.mkdir(folder.path, { recursive: true });
    const file = external_node_path_.join(folder.path, `${PROBE_FILE_PREFIX}${(0,external_node_crypto_.randomBytes)(16).toString('hex')}`);
    try {
        await promises_.writeFile(file, '', { flag: 'wx', mode: 0o644 });
    }
    catch (error) {
        if (made)
            await promises_.rm(made, { recursive: true, force: true });
        throw error;
    }
    return { folder, file, made };
}
/** The names probeEngineView gives its helpers. */
const PROBE_NAME = /^worktree-sandbox-probe-[0-9a-f]{8}$/;
/** How old a never-started probe helper must be to count as left by a killed run. */
const STALE_PROBE_MS = 60 * 60_000;
/** `CreatedAt` as Docker and Podman print it (`2026-11-26 08:00:00[.123] +0000 UTC`), in epoch ms. Pure. */
function parseCreatedAt(text) {
    const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.\d+)? ([+-])(\d\d)(\d\d)/.exec(text.trim());
    if (!m)
        return undefined;
    const ms = Date.parse(`${m[1]}T${m[2]}${m[3]}${m[4]}:${m[5]}`);
    return Number.isNaN(ms) ? undefined : ms;
}
/**
 * The probe helpers that runs killed before their end left behind (created, never started, named and
 * labelled as the probe makes them, older than `olderThanMs`): removed. Returns their names.
 */
async function removeStaleProbes(engine, nowMs = Date.now(), olderThanMs = STALE_PROBE_MS) {
    const listed = await engine.exec([
        'ps',
        '--all',
        '--filter',
        'status=created',
        '--filter',
        `label=${Object.keys(engine_labels/* HELPER_LABELS */.vJ)[0]}=${Object.values(engine_labels/* HELPER_LABELS */.vJ)[0]}`,
        '--format',
        '{{.Names}}\t{{.CreatedAt}}',
    ]);
    if (listed.exitCode !== 0)
        return [];
    const stale = listed.stdout
        .split('\n')
        .map((line) => line.split('\t'))
        .filter(([name, created]) => {
        const at = parseCreatedAt(created ?? '');
        return PROBE_NAME.test(name ?? '') && at !== undefined && nowMs - at >= olderThanMs;
    })
        .map(([name]) => name);
    const removed = [];
    for (const name of stale)
        if (await engine.removeContainer(name))
            removed.push(name);
    return removed;
}

// EXTERNAL MODULE: ./src/engine/proc.ts + 2 modules
var proc = __nccwpck_require__(729);
;// CONCATENATED MODULE: ./src/engine/git-hardening.ts
// git's hardened configuration and environment: what keeps a repository's own settings (which a container
// may have written) from running anything on the host: hooks, fsmonitor, pagers, external diffs, automatic
// gc that would prune live sandboxes. Host-side git gets it through Git; git run by the action's scripts
// inside helper containers through `helperGitEnv`.

/** Configuration applied to every host-side git command, above the repository's own configuration. */
const HARDENED_GIT_CONFIG = [
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', 'false'],
    ['core.untrackedCache', 'false'],
    ['core.sshCommand', 'ssh'],
    ['core.pager', 'cat'],
    ['core.quotePath', 'false'],
    ['diff.external', ''],
    // A submodule planted by the container brings its own .git and config: never run git inside one.
    ['diff.ignoreSubmodules', 'dirty'],
    ['status.submoduleSummary', 'false'],
    ['submodule.recurse', 'false'],
    ['fetch.recurseSubmodules', 'false'],
    ['push.recurseSubmodules', 'no'],
    ['protocol.ext.allow', 'never'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['commit.gpgSign', 'false'],
    ['tag.gpgSign', 'false'],
    ['advice.detachedHead', 'false'],
    ['init.defaultBranch', 'main'],
];
/**
 * For git talking to a remote (fetch, push): an HTTP transfer that receives nothing at all for two minutes
 * is abandoned by git itself, with git's own message, before the fetch's time limit runs out. (A server
 * that is still counting objects sends keep-alive packets, so an honest slow start is not cut.)
 */
const GIT_NETWORK_CONFIG = [
    ['http.lowSpeedLimit', '1'],
    ['http.lowSpeedTime', '120'],
];
/** Config as environment variables (GIT_CONFIG_COUNT/KEY_n/VALUE_n): also reaches git run by our scripts. */
function gitConfigEnv(extra = []) {
    const all = [...HARDENED_GIT_CONFIG, ...extra];
    const env = { GIT_CONFIG_COUNT: String(all.length) };
    all.forEach(([key, value], i) => {
        env[`GIT_CONFIG_KEY_${i}`] = key;
        env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    return env;
}
/** The same hardening for git run by the action's scripts inside helper containers (nothing secret). */
function helperGitEnv() {
    return {
        ...gitConfigEnv(),
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: '/tmp',
        LC_ALL: 'C',
    };
}
/**
 * The environment of every host-side git command: the runner's few variables git needs, no prompt, no
 * optional locks (a read must not write), no system configuration, and the hardened configuration.
 */
function baseGitEnv() {
    return {
        ...(0,proc/* pickEnv */.Bh)(['PATH', 'HOME', 'XDG_CONFIG_HOME', 'SSH_AUTH_SOCK', 'GIT_SSH_COMMAND', 'TMPDIR']),
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        LC_ALL: 'C',
        ...gitConfigEnv(),
    };
}

// EXTERNAL MODULE: ./src/engine/time-limits.ts
var time_limits = __nccwpck_require__(1814);
;// CONCATENATED MODULE: ./src/engine/git-version.ts
// Which git the action needs, checked once when the wrapper is made: an older git lacks options the
// hardening relies on.


const MIN_GIT_VERSION = [2, 31, 0];
/** Throws when git is missing or older than MIN_GIT_VERSION, saying which. */
async function checkGitVersion(env) {
    let result;
    try {
        result = await (0,proc/* runProcess */.R3)('git', ['version'], {
            env,
            limit: { ms: (0,time_limits/* timeLimitMs */.PI)('git'), purpose: 'checking that git is new enough' },
        });
    }
    catch (error) {
        if (error instanceof proc/* ProcError */.Nm) {
            throw new Error('git is not installed or not on PATH: the action needs git 2.31 or newer.', {
                cause: error,
            });
        }
        throw error;
    }
    const match = /git version (\d+)\.(\d+)\.(\d+)/.exec(result.stdout);
    if (!match)
        throw new Error(`Cannot read the git version from "${result.stdout.trim()}".`);
    const version = match.slice(1, 4).map(Number);
    if (compareVersions(version, MIN_GIT_VERSION) < 0) {
        throw new Error(`git ${version.join('.')} is too old: worktree-sandbox needs git ${MIN_GIT_VERSION.join('.')} or newer.`);
    }
}
function compareVersions(a, b) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const d = (a[i] ?? 0) - (b[i] ?? 0);
        if (d !== 0)
            return d;
    }
    return 0;
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __nccwpck_require__(1421);
// EXTERNAL MODULE: ./src/engine/tool-path.ts
var tool_path = __nccwpck_require__(2428);
;// CONCATENATED MODULE: ./src/engine/piped-process.ts
// A long-lived program that answers one question at a time (git's `cat-file --batch`), read back in exact
// amounts. Argument arrays only, as in proc.ts.



async function startPiped(tool, args, options) {
    const child = (0,external_node_child_process_.spawn)(await (0,tool_path/* toolPath */.O)(tool), [...args], {
        cwd: options.cwd,
        env: options.env,
        stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks = [];
    let buffered = 0;
    let ended;
    let wake;
    const notify = () => {
        const w = wake;
        wake = undefined;
        w?.();
    };
    child.stdout.on('data', (chunk) => {
        chunks.push(chunk);
        buffered += chunk.length;
        // Nobody is reading: stop the process until someone does (memory stays at one chunk or so).
        if (buffered > 1024 * 1024)
            child.stdout.pause();
        notify();
    });
    child.on('close', (code, signal) => {
        ended ??= new Error(`${tool} ended (exit ${code ?? signal})`);
        notify();
    });
    // Its own exit (not its pipes' closing, which a grandchild could hold up) ends a wait for it.
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 128)));
    child.on('error', (error) => {
        ended = (0,proc/* notStarted */.DY)(tool, error);
        notify();
    });
    child.stdin.on('error', () => undefined); // a killed process: the read says so
    const timer = setTimeout(() => {
        ended = new Error(`${tool} took longer than ${options.timeoutMs / 1000} s: stopped`);
        child.kill('SIGKILL');
        // A grandchild may hold stdout open after the kill: reads fail now, not when it lets go.
        notify();
    }, options.timeoutMs);
    void exited.then(() => clearTimeout(timer));
    const waitFor = async (ready) => {
        while (!ready()) {
            if (ended && !ready())
                throw ended;
            child.stdout.resume();
            await new Promise((resolve) => (wake = resolve));
        }
    };
    const take = (bytes) => {
        const out = Buffer.allocUnsafe(bytes);
        let filled = 0;
        while (filled < bytes) {
            const head = chunks[0];
            const n = Math.min(head.length, bytes - filled);
            head.copy(out, filled, 0, n);
            filled += n;
            if (n === head.length)
                chunks.shift();
            else
                chunks[0] = head.subarray(n);
        }
        buffered -= bytes;
        return out;
    };
    const newlineAt = (max) => {
        let seen = 0;
        for (const chunk of chunks) {
            const i = chunk.indexOf(10);
            if (i >= 0 && seen + i <= max)
                return seen + i;
            seen += chunk.length;
            if (seen > max)
                break;
        }
        return -1;
    };
    return {
        send: (text) => {
            if (!ended)
                child.stdin.write(text);
        },
        async readLine(maxBytes = 4096) {
            let at = -1;
            await waitFor(() => {
                at = newlineAt(maxBytes);
                if (at < 0 && buffered > maxBytes)
                    throw new Error(`${tool} printed a line over ${maxBytes} bytes`);
                return at >= 0;
            });
            const line = take(at + 1);
            return line.subarray(0, at).toString('utf8');
        },
        async read(bytes) {
            await waitFor(() => buffered >= bytes);
            return take(bytes);
        },
        async close(graceMs = 5_000) {
            child.stdin.end();
            const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
            const code = await exited;
            clearTimeout(kill);
            return code;
        },
        kill: () => child.kill('SIGKILL'),
    };
}

;// CONCATENATED MODULE: ./src/engine/git.ts
// The git CLI behind one interface (GitCommands, git-commands.ts). Every call goes through `exec`:
// argument arrays, a fixed environment, and the hardened configuration (git-hardening.ts) that keeps a
// repository's own settings from running anything on the host.


// The interface's constants, also where callers of the wrapper have always found them.






/** Where `fetchCommit` puts what it fetched, for the moment it takes to read its commit. */
const FETCH_REF_ROOT = 'refs/worktree-sandbox/fetch';
class GitError extends Error {
    args;
    result;
    constructor(args, result) {
        super(`git ${args.join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`);
        this.args = args;
        this.result = result;
        this.name = 'GitError';
    }
}
class Git {
    env;
    constructor(env) {
        this.env = env;
    }
    /** The wrapper, once git is known to be there and new enough. */
    static async create() {
        const git = new Git(baseGitEnv());
        await checkGitVersion(git.env);
        return git;
    }
    /**
     * Runs git in `cwd` under the time limit of its kind of work; never throws for a non-zero exit (see
     * `run`), but throws a ProcTimeLimitError when the limit runs out (git and everything it started, a
     * remote helper or ssh, are killed).
     */
    async exec(cwd, args, options = {}) {
        const work = options.work ?? 'git';
        const env = { ...this.env, ...options.env };
        const remote = work === 'git-fetch' || work === 'git-push';
        const config = [...(remote ? GIT_NETWORK_CONFIG : []), ...(options.config ?? [])];
        if (config.length)
            Object.assign(env, gitConfigEnv(config));
        const limit = { ms: (0,time_limits/* timeLimitMs */.PI)(work), purpose: options.purpose ?? `in ${cwd}` };
        return (0,proc/* runProcess */.R3)('git', args, { cwd, env, input: options.input, limit });
    }
    /** Runs git in `cwd`; throws a GitError naming the command for a non-zero exit. Returns stdout. */
    async run(cwd, args, options = {}) {
        const result = await this.exec(cwd, args, options);
        if (result.exitCode !== 0)
            throw new GitError(args, result);
        return result.stdout;
    }
    /**
     * Runs git in `cwd` with its output streamed (proc.ts's `runStreaming`: lines handed on as they come, or
     * stdout written to a file up to a limit): for output that can be as large as a sandbox makes it.
     */
    async stream(cwd, args, options = {}) {
        const { config, ...rest } = options;
        const env = { ...this.env, ...(config?.length ? gitConfigEnv(config) : {}) };
        // A stream the caller does not stop itself stops at the local-command limit.
        const limitMs = rest.timeLimitMs ?? (rest.signal ? undefined : (0,time_limits/* timeLimitMs */.PI)('git'));
        return (0,proc/* runStreaming */.SL)('git', args, { ...rest, timeLimitMs: limitMs, cwd, env });
    }
    /**
     * Reads objects one at a time through two long-lived `git cat-file` processes: their size first
     * (`--batch-check`), their content only when it is within what the caller can take (`--batch`), so that
     * no object is held whole, by git or by us, unless it was asked for. Close it when done.
     */
    async objectReader(cwd, timeoutMs) {
        const env = this.env;
        const [check, batch] = await Promise.all([
            startPiped('git', ['cat-file', '--batch-check'], { cwd, env, timeoutMs }),
            startPiped('git', ['cat-file', '--batch'], { cwd, env, timeoutMs }),
        ]);
        const header = (line, oid) => {
            const [name, type, size] = line.split(' ');
            if (type === 'missing' || name !== oid)
                return undefined;
            return { type, size: Number(size) };
        };
        return {
            async info(oid) {
                check.send(`${oid}\n`);
                return header(await check.readLine(), oid);
            },
            async read(oid) {
                batch.send(`${oid}\n`);
                const head = header(await batch.readLine(), oid);
                if (!head)
                    return undefined;
                const body = await batch.read(head.size + 1); // the content and its newline
                return { type: head.type, body: body.subarray(0, head.size) };
            },
            async close() {
                await Promise.all([check.close(), batch.close()]);
            },
        };
    }
    /**
     * Small objects by name, all in one `git cat-file --batch`: each one's object name, type and content,
     * or null where git has no such object. Undefined when that cannot be done in one go (an object over
     * `maxBytes`, an answer it did not expect, git failing or running out of time): the caller then asks
     * in two steps, sizes first. No more than `maxBytes` of any one object is ever held. Names may not
     * hold a newline (one per line).
     */
    async readSmallObjects(cwd, names, maxBytes) {
        if (names.some((name) => /[\n\r\0]/.test(name)))
            return undefined;
        const batch = await startPiped('git', ['cat-file', '--batch'], {
            cwd,
            env: this.env,
            timeoutMs: (0,time_limits/* timeLimitMs */.PI)('git'),
        });
        const found = new Map();
        try {
            batch.send(names.map((name) => `${name}\n`).join(''));
            for (const name of names) {
                const header = await batch.readLine(Buffer.byteLength(name) + 100);
                if (header === `${name} missing`) {
                    found.set(name, null);
                    continue;
                }
                const [oid, type, size, ...rest] = header.split(' ');
                const bytes = Number(size);
                if (rest.length || !OID.test(oid) || !/^\d+$/.test(size) || bytes > maxBytes)
                    return undefined;
                const body = await batch.read(bytes + 1); // the content and its newline
                found.set(name, { oid, type, body: body.subarray(0, bytes) });
            }
            return (await batch.close()) === 0 ? found : undefined;
        }
        catch {
            return undefined;
        }
        finally {
            batch.kill();
        }
    }
    /** Environment for a script that calls git itself (same hardening as `exec`). */
    scriptEnv(extra = {}) {
        return { ...this.env, ...extra };
    }
    async isValidBranchName(name) {
        if (name.startsWith('-'))
            return false;
        // Run outside any repository, so that `@{-1}` and the like expand to nothing. `@` alone passes there,
        // but names HEAD inside a repository.
        if (name === '@')
            return false;
        const result = await this.exec('/', ['check-ref-format', '--branch', name]);
        return result.exitCode === 0 && result.stdout.trim() === name;
    }
    async refExists(cwd, ref) {
        const result = await this.exec(cwd, ['show-ref', '--verify', '--quiet', '--', ref]);
        return result.exitCode === 0;
    }
    /**
     * The commits of several full ref names at once (one git process): each name that exists and points to
     * a commit (an annotated tag is peeled to its commit), in a map; names that do not are absent.
     */
    async readRefs(cwd, refs) {
        const found = new Map();
        const wanted = new Set(refs.filter((ref) => ref.startsWith('refs/')));
        if (wanted.size === 0)
            return found;
        // for-each-ref also lists refs below a pattern (`refs/heads/a` shows `refs/heads/a/b`): exact names only.
        const out = await this.run(cwd, [
            'for-each-ref',
            '--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)',
            '--',
            ...wanted,
        ]);
        for (const line of out.split('\n')) {
            const [object, type, peeled, peeledType, ...name] = line.split(' ');
            const ref = name.join(' ');
            if (!wanted.has(ref))
                continue;
            if (type === 'commit')
                found.set(ref, object);
            else if (type === 'tag' && peeledType === 'commit')
                found.set(ref, peeled);
        }
        return found;
    }
    /** The commit a revision names, or undefined when it names none. */
    async resolveCommit(cwd, rev) {
        if (rev.startsWith('-'))
            return undefined;
        const result = await this.exec(cwd, [
            'rev-parse',
            '--verify',
            '--quiet',
            '--end-of-options',
            `${rev}^{commit}`,
        ]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
    /**
     * Fetches one ref of a remote and returns its commit, holding no lock and changing no ref anyone reads:
     * git writes the objects (safe beside any other git process) and a ref of this call's own under
     * FETCH_REF_ROOT, removed again once its commit is read; FETCH_HEAD is not written. The caller then
     * points its own ref at the commit, briefly, under the repository lock. A GitError when the remote
     * refuses (no such ref, no access); a ProcTimeLimitError when it does not answer within `git-fetch`.
     */
    async fetchCommit(cwd, remote, ref, purpose) {
        const own = `${FETCH_REF_ROOT}/${process.pid}-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`;
        try {
            await this.run(cwd, 
            // `--refmap=`: the remote's configured refspecs update no remote-tracking ref on the side.
            [
                'fetch',
                '--no-tags',
                '--quiet',
                '--no-write-fetch-head',
                '--refmap=',
                '--',
                remote,
                `+${ref}:${own}`,
            ], { work: 'git-fetch', purpose });
            return (await this.run(cwd, ['rev-parse', '--verify', '--end-of-options', `${own}^{commit}`])).trim();
        }
        finally {
            await this.exec(cwd, ['update-ref', '-d', '--', own]).catch(() => undefined);
        }
    }
    async remoteUrl(cwd, remote) {
        const result = await this.exec(cwd, ['config', '--get', `remote.${remote}.url`]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
}
/** git as the layers above engine/ hold it, the interface (Git.create); a spec holds a fake. */
const createGit = () => Git.create();

// EXTERNAL MODULE: ./src/network/leftovers.ts
var leftovers = __nccwpck_require__(1434);
;// CONCATENATED MODULE: ./src/sandbox/bookkeeping.ts
// The parent's record of its sandboxes, kept where no container can write (the parent's `.git`, which
// containers never see but for its object store):
//  - refs `refs/worktree-sandbox/<disk|volume>/<name>/head`: the sandbox's commit as last imported (at
//    first, the commit it started from); keeps every object the sandbox borrows alive across `git gc`;
//  - `.../offered`: the upstream commit last offered inside the sandbox as `origin/<branch>`;
//  - `.../creating`: present only while the sandbox is being created (a killed run is recognised by it);
//  - a private store per sandbox (`<gitDir>/worktree-sandbox/stores/...`), created and configured only by
//    the host, for what was never committed (the snapshot of uncommitted work): never the parent's store,
//    which every sandbox borrows and could read.
// ADR 0002, ADR 0004 (docs/adr/).


const REF_ROOT = 'refs/worktree-sandbox';
/** Where the capture helper names the sandbox's work as a commit, for the bundle (run/capture.ts). */
const SNAPSHOT_REF = `${REF_ROOT}/snapshot`;
function isolationWord(isolation) {
    return isolation === 'disk' ? 'disk' : 'volume';
}
/**
 * A sandbox name as one ref component. Names are [A-Za-z0-9._-] with `..` before a hash (naming.ts), which
 * git forbids in refs: each dot followed by a dot gets a `%` after it (and a trailing `.lock` one too).
 * `%` never occurs in a name, so the encoding is reversible and two names never share a component.
 */
function refComponent(name) {
    const encoded = name.replace(/\.(?=\.)/g, '.%');
    return encoded.endsWith('.lock') ? `${encoded}%` : encoded;
}
function nameFromComponent(component) {
    return component.replace(/%/g, '');
}
function sandboxRefs(sandbox) {
    const prefix = `${REF_ROOT}/${isolationWord(sandbox.isolation)}/${refComponent(sandbox.name)}`;
    return { prefix, head: `${prefix}/head`, offered: `${prefix}/offered`, creating: `${prefix}/creating` };
}
function privateStorePath(parent, sandbox) {
    return external_node_path_.join(parent.gitDir, 'worktree-sandbox', 'stores', isolationWord(sandbox.isolation), `${sandbox.name}.git`);
}
/**
 * Creates the private store when missing: a bare repository that borrows the parent's objects. Its
 * alternates name the parent's store by absolute path: when the parent was moved since, they are pointed
 * at where the parent's store is now (else every git command in the store fails).
 */
async function ensurePrivateStore(git, parent, store) {
    const alternates = external_node_path_.join(store, 'objects', 'info', 'alternates');
    const wanted = `${parent.objectStores[0]}\n`;
    if (!(await pathExists(external_node_path_.join(store, 'HEAD')))) {
        await promises_.mkdir(external_node_path_.dirname(store), { recursive: true });
        await git.run(parent.gitDir, ['init', '--quiet', '--bare', '--template=', '--', store]);
    }
    else if ((await promises_.readFile(alternates, 'utf8').catch(() => '')) === wanted)
        return;
    await promises_.writeFile(alternates, wanted);
}
/** Deletes every bookkeeping ref of a sandbox, in one git process. */
async function dropRecords(git, parent, refs) {
    const names = (await git.run(parent.path, ['for-each-ref', '--format=%(refname)', '--', `${refs.prefix}/`]))
        .split('\n')
        .filter(Boolean);
    if (names.length === 0)
        return;
    const input = Buffer.from(names.map((n) => `delete ${n}\n`).join(''));
    await git.run(parent.path, ['update-ref', '--stdin'], { input });
}
/** The project folder's note of its parent, for the reaper (`<root>/<project>/.parent`, host-only). */
const PARENT_NOTE = '.parent';
async function writeParentNote(projectDir, parent) {
    const file = external_node_path_.join(projectDir, PARENT_NOTE);
    if ((await promises_.readFile(file, 'utf8').catch(() => '')).trim() === parent.path)
        return;
    await promises_.writeFile(file, `${parent.path}\n`);
}
/** Whether anything (a link too) is at `p`. */
async function pathExists(p) {
    return promises_.lstat(p).then(() => true, () => false);
}

;// CONCATENATED MODULE: ./src/ui/sandbox-text.ts
// Text that came from a sandbox (file names, ref names, commit subjects, what a helper or git printed about
// its data) made safe to print on one log line. The Actions runner reads every line of a step's output
// for workflow commands (`::error::`, `::set-output …`, `##[…]`), and it breaks lines at `\n`, `\r\n` and
// a lone `\r`; @actions/core escapes line breaks in warnings and errors but not in `core.info`. So such
// text is printed only through this module (or inside a `::stop-commands::` fence): every control
// character is written as a visible escape, a line cannot start a command, and the length is bounded.
// In Markdown (the job summary, a pull-request comment) such text goes through untrusted-markdown.ts.
/** The most characters of one piece of sandbox text that a message carries. */
const SANDBOX_TEXT_MAX = 2_000;
// C0 controls, DEL, C1 controls (U+0085 NEL breaks lines for some readers) and the Unicode line and
// paragraph separators: each becomes a visible escape.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const sandbox_text_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** What opens a workflow command at the start of a line (the runner trims leading blanks first). */
const COMMAND_START = /^(\s*)(::|##\[)/;
function escapeControls(text) {
    return text.replace(sandbox_text_CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/** A line that would open a workflow command gets a backslash before it: `\::error::x` is only text. */
function disarmStart(line) {
    return line.replace(COMMAND_START, '$1\\$2');
}
/**
 * Sandbox text as one printable line: control characters (`\r`, `\n`, ESC, …) escaped, a leading `::` or
 * `##[` disarmed, and at most `max` characters of it (the rest counted, not shown).
 */
function sandboxText(text, max = SANDBOX_TEXT_MAX) {
    const raw = String(text);
    const cut = raw.length > max ? raw.slice(0, max) : raw;
    const more = raw.length - cut.length;
    return disarmStart(escapeControls(cut)) + (more > 0 ? `… (${more} more characters)` : '');
}
/**
 * A whole log message, whatever it holds, made safe line by line: it keeps its own `\n` line breaks, but
 * no line of it can start a workflow command, and every other control character (a lone `\r` above all)
 * is escaped. The last guard of the action's log functions; sandbox text inside a message still goes
 * through `sandboxText` where the message is made, so that it stays on one line and bounded.
 */
function logLines(message) {
    return String(message)
        .split(/\r?\n/)
        .map((line) => disarmStart(escapeControls(line)))
        .join('\n');
}

;// CONCATENATED MODULE: ./src/sandbox/git-traps.ts
// Traps in a sandbox's git folder, cleared before a helper's git writes there. The command can leave,
// where the next helper's git opens a file, something that is not a file: a FIFO (git blocks opening it,
// and so did every later run of that sandbox until its helper's time limit), a socket or a device, or a
// symbolic link (git would write through it, or find a lock taken for good). Such an entry holds no work:
// it is the sandbox's own bookkeeping, in its `.git` folder, and it is removed, never opened or followed.
//
// The removal happens where the helper runs, in its container, in the shell before its git starts: for
// a volume that container is the only one that sees the files, and for a disk sandbox the host never
// looks (no host-side read could be fooled by a link the container planted). Each helper names the paths
// its own git writes; the work tree is never touched. What git only reads (HEAD, config, info/exclude)
// and a branch's own ref (it holds the work's tip) are left as they are: removing them would not heal the
// sandbox, and the helper's time limit still ends a git that blocks there.


/**
 * `clear_git_traps TOKEN PATH...`, run in the work tree: each PATH is relative to its `.git` folder. Each
 * component of a path is looked at without following it (`-L` first): a symbolic link, FIFO, socket or
 * device is removed and named on stderr as `TOKEN trap KIND PATH`, and nothing below it is looked at; a
 * folder is walked into; a regular file, or nothing, ends the path. A `.git` that is a link or not a
 * folder is left alone: it is not the folder this action made, and git's own errors speak for it.
 */
const TRAP_GUARD = `clear_git_traps() {
  _gt_token="$1"; shift
  if [ -L .git ] || [ ! -d .git ]; then return 0; fi
  for _gt_rel in "$@"; do
    _gt_path=.git; _gt_rest="$_gt_rel"
    while [ -n "$_gt_rest" ]; do
      _gt_path="$_gt_path/\${_gt_rest%%/*}"
      case "$_gt_rest" in */*) _gt_rest="\${_gt_rest#*/}" ;; *) _gt_rest= ;; esac
      if [ -L "$_gt_path" ]; then _gt_kind=link
      elif [ -d "$_gt_path" ]; then continue
      elif [ ! -e "$_gt_path" ] || [ -f "$_gt_path" ]; then break
      elif [ -p "$_gt_path" ]; then _gt_kind=fifo
      elif [ -S "$_gt_path" ]; then _gt_kind=socket
      elif [ -b "$_gt_path" ] || [ -c "$_gt_path" ]; then _gt_kind=device
      else _gt_kind=other; fi
      if rm -f -- "$_gt_path" 2>/dev/null; then
        printf '%s trap %s %s\\n' "$_gt_token" "$_gt_kind" "\${_gt_path#.git/}" >&2
      fi
      break
    done
  done
}
`;
const KINDS = new Map([
    ['fifo', 'FIFO'],
    ['socket', 'socket'],
    ['device', 'device'],
    ['link', 'symbolic link'],
    ['other', 'special file'],
]);
/**
 * The most entries kept of one helper's report: each helper names a handful of paths, and each path
 * yields one removal at most, so more than this is not the guard's report.
 */
const MAX_CLEARED = 16;
/** The most characters of one path kept. */
const PATH_MAX_CHARS = 300;
/** Collects a helper's `TOKEN trap KIND PATH` lines (stderr), bounded in count and length. */
class ClearedTraps {
    helper;
    token;
    list = [];
    constructor(helper, 
    /** What begins the guard's lines: a fresh random token unless the helper has one for its own lines. */
    token = (0,external_node_crypto_.randomBytes)(16).toString('hex')) {
        this.helper = helper;
        this.token = token;
    }
    /** Takes the line if it is one of the guard's (true), else leaves it to the caller. */
    take(line) {
        const prefix = `${this.token} trap `;
        if (!line.startsWith(prefix))
            return false;
        const rest = line.slice(prefix.length);
        const space = rest.indexOf(' ');
        const kind = space > 0 ? KINDS.get(rest.slice(0, space)) : undefined;
        if (!kind)
            return true;
        if (this.list.length < MAX_CLEARED)
            this.list.push({ kind, path: sandboxText(rest.slice(space + 1), PATH_MAX_CHARS), helper: this.helper });
        return true;
    }
}
/** The removals in one line of text (escaped already; the job summary escapes its own characters too). */
function describeCleared(cleared, shown = MAX_CLEARED) {
    const named = cleared.slice(0, shown).map((t) => `${t.kind} .git/${t.path} (${t.helper})`);
    const more = cleared.length - named.length;
    return named.join('; ') + (more > 0 ? `; and ${more} more` : '');
}
/** Tells the log what was removed from the sandbox's git folder, and why. */
function reportCleared(ui, sandboxName, cleared) {
    if (!cleared.length)
        return;
    ui.warning(`Removed from the git folder of ${sandboxName} what its git would have blocked on or written through (left there since the last run, not work): ${describeCleared(cleared)}.`);
}

;// CONCATENATED MODULE: ./src/sandbox/layout.ts
// Where a sandbox lives and what a container sees of it. A sandbox is a repository of its own (its own
// `.git` folder) that borrows the parent's objects read-only through `objects/info/alternates`, plus a home
// for the command. Disk and volume sandboxes are one discriminated union.
//
//   disk:    <root>/<project>/<name>/        the work tree and its .git
//            <root>/<project>/.home/<name>/  the command's HOME
//   volume:  <prefix>-<project>-<name>, mounted at /sandbox: /sandbox/<name>/ and /sandbox/.home/
// ADR 0001, ADR 0005 (docs/adr/).






const HOME_FOLDER = '.home';
function locateSandbox(plan, parent, isolation, worktreeRoot, volumePrefix) {
    const project = projectName(parent.path);
    const common = { name: plan.sandbox, kind: plan.kind, project, branch: plan.branch, parent };
    if (isolation === 'disk') {
        const hostPath = diskWorktreePath(worktreeRoot, project, plan.sandbox);
        const homePath = external_node_path_.join(external_node_path_.dirname(hostPath), HOME_FOLDER, plan.sandbox);
        return { ...common, isolation, hostPath, worktreePath: hostPath, homePath };
    }
    return {
        ...common,
        isolation,
        volume: volumeName(volumePrefix, project, plan.sandbox),
        worktreePath: `${VOLUME_MOUNT}/${plan.sandbox}`,
        homePath: `${VOLUME_MOUNT}/${HOME_FOLDER}`,
    };
}
/** What the sandbox is, for a person: the volume or the folder. */
function whereIs(sandbox) {
    return sandbox.isolation === 'disk' ? sandbox.hostPath : `volume ${sandbox.volume}`;
}
/**
 * The parent's object store, read-only at its host path, with every store it borrows from in turn: what
 * a sandbox's `objects/info/alternates` names.
 */
function objectStoreMounts(parent) {
    return parent.objectStores.map((dir) => ({ type: 'bind', source: dir, target: dir, readonly: true }));
}
/** The sandbox itself, read-write: its work tree and its home (one volume, or two host folders). */
function sandboxMounts(sandbox) {
    if (sandbox.isolation === 'container')
        return [{ type: 'volume', source: sandbox.volume, target: VOLUME_MOUNT }];
    return [
        { type: 'bind', source: sandbox.hostPath, target: sandbox.hostPath },
        { type: 'bind', source: sandbox.homePath, target: sandbox.homePath },
    ];
}
/**
 * What the user's command sees: its sandbox read-write; the parent's work tree read-only with the
 * parent's `.git` hidden, except its object store, read-only; nothing else of the host. A disk root
 * inside the parent's work tree is hidden too, so that no other sandbox shows through.
 */
function commandMounts(sandbox, worktreeRoot) {
    const { parent } = sandbox;
    const mounts = [
        { type: 'bind', source: parent.path, target: parent.path, readonly: true },
        { type: 'tmpfs', target: parent.gitDir },
        ...objectStoreMounts(parent),
    ];
    if (sandbox.isolation === 'disk') {
        const inside = (dir) => dir.startsWith(parent.path + external_node_path_.sep);
        const root = worktreeRoot ?? external_node_path_.dirname(external_node_path_.dirname(sandbox.hostPath));
        if (inside(root))
            mounts.push({ type: 'tmpfs', target: root });
        else if (inside(sandbox.hostPath))
            mounts.push({ type: 'tmpfs', target: external_node_path_.dirname(sandbox.hostPath) });
    }
    return [...mounts, ...sandboxMounts(sandbox)];
}
/** What the action's helper containers see: the sandbox read-write and the objects it borrows. */
function helperMounts(sandbox) {
    return [...objectStoreMounts(sandbox.parent), ...sandboxMounts(sandbox)];
}
/**
 * A helper container on one sandbox: one of the action's scripts run by `sh -c` with positional
 * arguments only, as the runner's user unless `extra` says otherwise, seeing the sandbox and the objects
 * it borrows, git hardened (`extra.env` adds to it), labelled as a helper of this sandbox, removed when
 * it exits.
 */
function sandboxHelper(sandbox, image, script, extra = {}) {
    return {
        remove: true,
        image,
        user: (0,container_args/* userArg */.Q6)(),
        mounts: helperMounts(sandbox),
        labels: (0,engine_labels/* sandboxHelperLabels */.xN)(sandbox),
        entrypoint: 'sh',
        args: ['-c', script.text, script.name, ...script.args],
        ...extra,
        env: { ...helperGitEnv(), ...extra.env },
    };
}
/** The real path of a folder that may not exist yet (its nearest existing ancestor resolved), creating nothing. */
async function realRoot(root) {
    const rest = [];
    let current = external_node_path_.resolve(root);
    for (;;) {
        try {
            return external_node_path_.join(await promises_.realpath(current), ...rest.reverse());
        }
        catch {
            const up = external_node_path_.dirname(current);
            if (up === current)
                return external_node_path_.resolve(root);
            rest.push(external_node_path_.basename(current));
            current = up;
        }
    }
}

;// CONCATENATED MODULE: ./src/sandbox/lock.ts
// Cross-process locks (proper-lockfile: an atomic mkdir whose mtime the holder refreshes, so a lock whose
// holder was killed goes stale and is taken over instead of blocking everyone forever).
//  - the repository lock serializes every change to a parent's worktree metadata;
//  - a sandbox lock is held by the run using that sandbox, so two runs never share one silently.




let lockfileLoaded;
/**
 * proper-lockfile, loaded on first use rather than at every start: it brings graceful-fs, which patches
 * `fs` as it loads. A run starts loading it (loadLocking) while it waits for its first git and engine
 * answers, so that it is ready by the time the run takes its sandbox's lock.
 */
function loadLocking() {
    lockfileLoaded ??= __nccwpck_require__.e(/* import() */ 648).then(__nccwpck_require__.t.bind(__nccwpck_require__, 3648, 23)).then((loaded) => loaded.default ?? loaded);
    return lockfileLoaded;
}
const LOCK_STALE_MS = 10_000;
const LOCK_UPDATE_MS = 2_000;
function lockDirectory(gitDir) {
    return external_node_path_.join(gitDir, 'worktree-sandbox', 'locks');
}
function lockPath(gitDir, name) {
    return external_node_path_.join(lockDirectory(gitDir), `${name}.lock`);
}
class LockTimeoutError extends Error {
    holder;
    constructor(message, 
    /** Who holds the lock, as its note says (process, host, run, job, since); empty when unknown. */
    holder = '') {
        super(message);
        this.holder = holder;
        this.name = 'LockTimeoutError';
    }
}
async function acquire(file, waitMs, describe, onWait) {
    const dir = external_node_path_.dirname(file);
    await makeLockDirectory(dir);
    const deadline = Date.now() + waitMs;
    let announced = false;
    let remade = false;
    for (;;) {
        try {
            const release = await (await loadLocking()).lock(file, {
                realpath: false,
                lockfilePath: file,
                stale: LOCK_STALE_MS,
                update: LOCK_UPDATE_MS,
                retries: 0,
                onCompromised: () => {
                    /* Another process took the lock over as stale: the holder was too slow; keep going. */
                },
            });
            const owner = {
                pid: process.pid,
                host: external_node_os_.hostname(),
                since: new Date().toISOString(),
                run: process.env.GITHUB_RUN_ID,
                attempt: process.env.GITHUB_RUN_ATTEMPT,
                job: process.env.GITHUB_JOB,
                workflow: process.env.GITHUB_WORKFLOW,
            };
            // The note, a few bytes, is written and removed synchronously: an answer of the thread pool waits
            // for the main thread, which a reap keeps busy looking at the next parents while it takes hundreds
            // of locks. The note only names the holder in messages: one that cannot be written is left out.
            ignoreError(() => external_node_fs_.writeFileSync(`${file}.owner`, JSON.stringify(owner)));
            return async () => {
                ignoreError(() => external_node_fs_.unlinkSync(`${file}.owner`));
                await release().catch(() => undefined);
            };
        }
        catch (error) {
            // The lock folder went since this process made it: made again, once.
            if (error.code === 'ENOENT' && !remade && lockDirectoriesMade.delete(dir)) {
                remade = true;
                await makeLockDirectory(dir);
                continue;
            }
            if (error.code !== 'ELOCKED')
                throw error;
            const owner = await readOwner(file);
            if (Date.now() >= deadline)
                throw new LockTimeoutError(describe(owner), holderText(owner));
            if (!announced && onWait) {
                onWait(`Waiting: ${describe(owner)}`);
                announced = true;
            }
            await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
        }
    }
}
function ignoreError(fn) {
    try {
        fn();
    }
    catch {
        /* see the caller */
    }
}
/**
 * Lock folders this process made: each is made once (the reaper takes a lock per sandbox, hundreds in one
 * parent). One that went since is made again: a lock that fails because its folder is gone drops it here.
 */
const lockDirectoriesMade = new Set();
/**
 * The lock folder `<gitDir>/worktree-sandbox/locks`, made inside a `.git` that exists: never the repository
 * itself (a post step whose parent was deleted must not bring its path back).
 */
async function makeLockDirectory(dir) {
    if (lockDirectoriesMade.has(dir))
        return;
    const gitDir = external_node_path_.dirname(external_node_path_.dirname(dir));
    const stat = await promises_.stat(gitDir).catch(() => undefined);
    if (!stat?.isDirectory())
        throw Object.assign(new Error(`${gitDir} does not exist: there is no repository to lock`), {
            code: 'ENOENT',
        });
    await promises_.mkdir(dir, { recursive: true });
    lockDirectoriesMade.add(dir);
}
async function readOwner(file) {
    try {
        return JSON.parse(await promises_.readFile(`${file}.owner`, 'utf8'));
    }
    catch {
        return undefined;
    }
}
/** `process 12 on host-1, run 345 (attempt 1), job build of workflow "CI", since <time>`; empty when unknown. */
function holderText(owner) {
    if (!owner)
        return '';
    // Our own note, but written by whichever run held the lock: its strings are quoted, never printed raw.
    const text = (value) => (typeof value === 'string' ? value : String(value)).slice(0, 200);
    const parts = [`process ${text(owner.pid)} on ${JSON.stringify(text(owner.host))}`];
    if (owner.run)
        parts.push(`run ${text(owner.run)}${owner.attempt ? ` (attempt ${text(owner.attempt)})` : ''}`);
    if (owner.job)
        parts.push(`job ${JSON.stringify(text(owner.job))}`);
    if (owner.workflow)
        parts.push(`workflow ${JSON.stringify(text(owner.workflow))}`);
    parts.push(`since ${text(owner.since)}`);
    return parts.join(', ');
}
function ownerText(owner) {
    const holder = holderText(owner);
    return holder ? ` (${holder})` : '';
}
/** Runs `fn` holding the lock `file` (a folder proper-lockfile makes); `what` names what it protects. */
async function withLockFile(file, what, fn, waitMs = 120_000) {
    const release = await acquire(file, waitMs, (owner) => `${what} is locked by another run${ownerText(owner)}`);
    try {
        return await fn();
    }
    finally {
        await release();
    }
}
/**
 * Runs `fn` holding the parent repository's metadata lock. Every change the action makes to the parent's
 * shared metadata (worktree registrations, refs, config) and every check of the git guard happens under it.
 */
async function withRepositoryLock(gitDir, fn, waitMs = 120_000) {
    return withLockFile(lockPath(gitDir, 'repository'), `the worktree metadata of ${external_node_path_.dirname(gitDir)}`, fn, waitMs);
}
async function lockSandbox(gitDir, sandbox, waitMs, onWait) {
    return acquire(lockPath(gitDir, `sandbox-${sandbox}`), waitMs, (owner) => `sandbox ${sandbox} is in use by another run${ownerText(owner)}; two runs never share a sandbox`, onWait);
}
/**
 * The sandbox's lock, when no run holds it now (never waits): its release, or why it could not be had
 * (a run that holds it, or takes it first, wins: the sandbox is then in use).
 */
async function tryLockSandbox(gitDir, sandbox) {
    try {
        return { release: await lockSandbox(gitDir, sandbox, 0) };
    }
    catch (error) {
        return {
            refused: error instanceof LockTimeoutError
                ? `in use: a run holds its lock${error.holder ? ` (${error.holder})` : ''}`
                : `its lock could not be taken: ${error.message}`,
        };
    }
}
/**
 * A note beside the sandbox's lock, host-only: a command container of the sandbox may exist. Written
 * before one is started, removed once it is gone; a run that finds the note (its writer was killed)
 * looks for the containers it left, and only then: asking the engine costs every run start-up time.
 */
function containerNotePath(gitDir, sandbox) {
    return external_node_path_.join(lockDirectory(gitDir), `sandbox-${sandbox}.container`);
}
/** True while a live run holds the sandbox's lock (a lock whose holder died is not counted). */
async function isSandboxLocked(gitDir, sandbox) {
    const file = lockPath(gitDir, `sandbox-${sandbox}`);
    try {
        return await (await loadLocking()).check(file, { realpath: false, lockfilePath: file, stale: LOCK_STALE_MS });
    }
    catch {
        return false;
    }
}

;// CONCATENATED MODULE: ./src/sandbox/remove.ts
// Removing a sandbox: its volume or folders, then every record the parent keeps of it (refs and private
// store). Nothing else.





async function removeSandbox(git, engine, sandbox) {
    const { parent } = sandbox;
    await withRepositoryLock(parent.gitDir, async () => {
        if (sandbox.isolation === 'container')
            await engine.removeVolume(sandbox.volume);
        else {
            await removeDiskFolders(sandbox);
            await removeEmptyProjectDir(external_node_path_.dirname(sandbox.hostPath));
        }
        await dropAllRecords(git, sandbox);
    });
}
/** A disk sandbox's two folders: its repository and its command's home. */
async function removeDiskFolders(sandbox) {
    await promises_.rm(sandbox.hostPath, { recursive: true, force: true });
    await promises_.rm(sandbox.homePath, { recursive: true, force: true });
}
/**
 * The records of many sandboxes whose folders are gone, a parent at a time: one lock, one `for-each-ref`
 * (none where `listRecords`, given, reads their names as data) and one `update-ref --stdin` per parent,
 * however many sandboxes (the reaper removes thousands).
 */
async function forgetSandboxes(git, sandboxes, 
/** The names of every ref under REF_ROOT in a parent's git folder; undefined: git lists them. */
listRecords) {
    const byParent = new Map();
    for (const s of sandboxes)
        byParent.set(s.parent.gitDir, [...(byParent.get(s.parent.gitDir) ?? []), s]);
    for (const group of byParent.values()) {
        const { parent } = group[0];
        await withRepositoryLock(parent.gitDir, async () => {
            const all = listRecords?.(parent.gitDir) ??
                (await git.run(parent.path, ['for-each-ref', '--format=%(refname)', '--', `${REF_ROOT}/`]))
                    .split('\n')
                    .filter(Boolean);
            const prefixes = group.map((s) => `${sandboxRefs(s).prefix}/`);
            const doomed = all.filter((ref) => prefixes.some((p) => ref.startsWith(p)));
            if (doomed.length)
                await git.run(parent.path, ['update-ref', '--stdin'], {
                    input: Buffer.from(doomed.map((ref) => `delete ${ref}\n`).join('')),
                });
            await Promise.all(group.map((s) => promises_.rm(privateStorePath(parent, s), { recursive: true, force: true })));
        });
    }
}
async function dropAllRecords(git, sandbox) {
    await dropRecords(git, sandbox.parent, sandboxRefs(sandbox));
    await promises_.rm(privateStorePath(sandbox.parent, sandbox), { recursive: true, force: true });
}
/** `<root>/<project>` goes with its last sandbox (its note of the parent and empty home folder too). */
async function removeEmptyProjectDir(projectDir) {
    const names = await promises_.readdir(projectDir).catch(() => undefined);
    if (!names)
        return;
    const homes = external_node_path_.join(projectDir, HOME_FOLDER);
    if (names.some((n) => n !== PARENT_NOTE && n !== HOME_FOLDER))
        return;
    if ((await promises_.readdir(homes).catch(() => [])).length > 0)
        return;
    await promises_.rm(homes, { recursive: true, force: true });
    await promises_.rm(external_node_path_.join(projectDir, PARENT_NOTE), { force: true });
    await promises_.rmdir(projectDir).catch(() => undefined);
}

;// CONCATENATED MODULE: ./src/sandbox/saved.ts
/**
 * What saves a commit in every parent, with a remote or without: its remote-tracking refs and tags. A
 * commit these reach is saved whatever the parent's configuration says, so a check may walk from them
 * first and read the configuration only when something is left unsaved (the reaper does: parent-check.ts).
 */
const ALWAYS_SAVING = ['--remotes', '--tags'];
/**
 * The parent's saved refs, from its configuration: any `remote.<name>.url` makes it a parent with a
 * remote. The parent is the host's own repository. When its configuration cannot be read, it is taken to
 * have a remote (the stricter answer: its branches do not count).
 */
async function savedRefs(git, parentPath) {
    const out = await git.exec(parentPath, ['config', '--get-regexp', '^remote\\..+\\.url$']);
    // `git config --get-regexp` exits 1 when nothing matches; anything else is an answer or a failure.
    const hasRemote = out.exitCode !== 1;
    return { revs: hasRemote ? ALWAYS_SAVING : [...ALWAYS_SAVING, '--branches'], hasRemote };
}
/**
 * Counting commits stops here (`rev-list --count --max-count`): a sandbox's history of millions of commits
 * costs a walk of this many, not of all; a count that reaches it is said as "at least".
 */
const MAX_COUNTED_COMMITS = 100_000;
/** `rev-list --count` of `revs`, stopped at MAX_COUNTED_COMMITS; undefined when git cannot say. */
async function countCommits(git, parentPath, revs, max = MAX_COUNTED_COMMITS) {
    const out = await git.exec(parentPath, ['rev-list', '--count', `--max-count=${max}`, ...revs, '--']);
    const count = Number(out.stdout.trim());
    if (out.exitCode !== 0 || !Number.isInteger(count))
        return undefined;
    return { count, atLeast: count >= max };
}
/**
 * How many commits `tips` reach that the parent has not saved, in one git process; undefined when git
 * cannot say (the caller counts that as work, never as none); `atLeast` when counting stopped.
 */
async function countUnsaved(git, parentPath, tips, saved) {
    if (tips.length === 0)
        return { count: 0, atLeast: false };
    return countCommits(git, parentPath, [...tips, '--not', ...saved.revs]);
}
/**
 * For a person: `3 commit(s) on branch "feature/x" on no remote`. The branch may come from a sandbox: it is
 * quoted and escaped, never printed raw.
 */
function describeUnsaved(unsaved) {
    const count = `${unsaved.atLeast ? 'at least ' : ''}${unsaved.count} commit(s)`;
    const on = unsaved.branch === undefined ? 'a detached HEAD' : `branch ${JSON.stringify(unsaved.branch)}`;
    const missing = unsaved.hasRemote ? 'on no remote' : 'on no branch or tag of the parent';
    return `${count} on ${on} ${missing}`;
}
/** `refs/heads/x` to `x`; anything else (a detached HEAD, another ref) to undefined. */
function branchOf(headRef) {
    return headRef?.startsWith('refs/heads/') ? headRef.slice('refs/heads/'.length) : undefined;
}

;// CONCATENATED MODULE: ./src/run/capture.ts








/**
 * $1 work tree, $2 branch (empty: transient), $3 commit leftovers (1/0), $4 message, $5 this run's token
 * for framed lines on stderr, $6 commits the parent has (hex, space separated). Positional only.
 */
const CAPTURE_SCRIPT = `set -eu
${TRAP_GUARD}
wt="$1"; branch="$2"; commit="$3"; message="$4"; token="$5"; exclude="$6"
cd -- "$wt"
# What git opens to write (and then delete) the snapshot's ref is cleared of traps first (git-traps.ts).
clear_git_traps "$token" ${SNAPSHOT_REF} ${SNAPSHOT_REF}.lock logs/${SNAPSHOT_REF} packed-refs packed-refs.lock
git rev-parse --verify --quiet HEAD >/dev/null || { echo "worktree-sandbox: the sandbox has no commit at HEAD" >&2; exit 3; }
# A run is activity, whether or not it changed anything: the reaper reads the work tree folder's time.
touch -c -- "$wt" 
head_ref=$(git symbolic-ref --quiet HEAD || true)
# Everything is staged into an index of our own, never through the sandbox's: a lock a killed command
# left there (index.lock, HEAD.lock) stops neither the snapshot nor the real commit.
index=$(mktemp /tmp/worktree-sandbox-index.XXXXXX)
real_index=$(git rev-parse --git-path index)
if [ -f "$real_index" ]; then cp -- "$real_index" "$index"; else rm -f -- "$index"; fi
GIT_INDEX_FILE="$index" git add -A >&2
tree=$(GIT_INDEX_FILE="$index" git write-tree)
committed=0
stale=0
if [ "$commit" = 1 ] && [ -n "$branch" ] && [ "$head_ref" = "refs/heads/$branch" ] &&
   [ "$tree" != "$(git rev-parse --verify HEAD^{tree})" ]; then
  # So is what moving the branch opens: its lock and log, HEAD's (the branch is HEAD's), the index's copy.
  clear_git_traps "$token" HEAD.lock logs/HEAD "refs/heads/$branch.lock" "logs/refs/heads/$branch" index.worktree-sandbox
  old=$(git rev-parse --verify HEAD)
  # Moving the branch locks it and HEAD (its reflog). No git can run in the sandbox while the helper does:
  # a lock there now was left by a killed git, and would stop the commit the run was asked for.
  for lock in "$(git rev-parse --git-path HEAD.lock)" "$(git rev-parse --git-path "refs/heads/$branch.lock")"; do
    if [ -e "$lock" ]; then rm -f -- "$lock"; stale=$((stale + 1)); fi
  done
  new=$(git commit-tree "$tree" -p "$old" -m "$message")
  git update-ref -m "worktree-sandbox: commit of uncommitted work" "refs/heads/$branch" "$new" "$old"
  # The work tree is the new commit now: so is the sandbox's index (replaced in one step; a stale
  # index.lock is left for the command's git).
  cp -- "$index" "$real_index.worktree-sandbox" && mv -f -- "$real_index.worktree-sandbox" "$real_index"
  committed=1
fi
rm -f -- "$index"
snapshot=$(git commit-tree "$tree" -p HEAD -m 'worktree-sandbox: snapshot of uncommitted work')
git update-ref ${SNAPSHOT_REF} "$snapshot"
printf '%s head-ref %s\\n' "$token" "$head_ref" >&2
printf '%s head %s\\n' "$token" "$(git rev-parse --verify HEAD)" >&2
if [ -n "$branch" ]; then printf '%s branch %s\\n' "$token" "$(git rev-parse --verify --quiet "refs/heads/$branch" || true)" >&2; fi
printf '%s committed %s\\n' "$token" "$committed" >&2
printf '%s stale-locks %s\\n' "$token" "$stale" >&2
set -- HEAD ${SNAPSHOT_REF}
if [ -n "$branch" ] && git show-ref --verify --quiet "refs/heads/$branch"; then set -- "$@" "refs/heads/$branch"; fi
for sha in $exclude; do set -- "$@" "^$sha"; done
status=0
git bundle create --quiet - "$@" || status=$?
git update-ref -d ${SNAPSHOT_REF} || true
exit $status
`;
class ImportLimitError extends Error {
    constructor(message) {
        super(message);
        this.name = 'ImportLimitError';
    }
}
async function captureSandbox(engine, sandbox, options) {
    for (const sha of options.exclude)
        if (!/^[0-9a-f]{40,64}$/.test(sha))
            throw new Error(`Not a commit id: ${sha}`);
    const token = (0,external_node_crypto_.randomBytes)(16).toString('hex');
    const traps = new ClearedTraps(options.work === 'capture' ? 'capture' : 'archive', token);
    const name = `worktree-sandbox-capture-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`;
    const dir = await promises_.mkdtemp(external_node_path_.join(process.env.RUNNER_TEMP || external_node_os_.tmpdir(), 'worktree-sandbox-import-'));
    const bundle = external_node_path_.join(dir, 'sandbox.bundle');
    const framed = new Map();
    const { author, committer } = options;
    const spec = sandboxHelper(sandbox, options.image, {
        name: 'capture',
        text: CAPTURE_SCRIPT,
        args: [
            sandbox.worktreePath,
            sandbox.branch,
            options.commit ? '1' : '0',
            options.commit?.message ?? '',
            token,
            options.exclude.join(' '),
        ],
    }, {
        name,
        workdir: sandbox.worktreePath,
        env: {
            GIT_AUTHOR_NAME: author.name,
            GIT_AUTHOR_EMAIL: author.email,
            GIT_COMMITTER_NAME: committer.name,
            GIT_COMMITTER_EMAIL: committer.email,
        },
    });
    try {
        const result = await engine.runHelper(spec, {
            work: options.work,
            where: `${sandbox.name} (${whereIs(sandbox)})`,
            consequence: options.work === 'capture'
                ? 'nothing was imported; the sandbox is kept as it is'
                : 'nothing was archived; the sandbox is kept as it is',
        }, {
            stdoutFile: { path: bundle, maxBytes: options.maxBytes },
            onLine: (line, stream) => {
                if (stream !== 'stderr' || !line.startsWith(`${token} `) || traps.take(line))
                    return;
                const [key, ...rest] = line.slice(token.length + 1).split(' ');
                if (!framed.has(key))
                    framed.set(key, rest.join(' '));
            },
        });
        if (result.overLimit) {
            // runHelper removed the container.
            throw new ImportLimitError(`The sandbox's changes are larger than max-import-size (${options.maxBytes} bytes): nothing was imported into the parent repository, and the sandbox ${sandbox.name} is kept as it is.`);
        }
        if (result.exitCode !== 0) {
            // The helper's last words: git's, and whatever the sandbox's own filters or hooks printed before
            // them (on the same line when they printed no newline), so escaped and bounded.
            const said = sandboxText(result.stderrTail
                .filter((l) => !l.startsWith(token))
                .slice(-3)
                .join(' ')
                .trim());
            throw new Error(await captureFailure(sandbox, result.exitCode, said));
        }
        return {
            bundle,
            dir,
            headRef: framed.get('head-ref') ?? '',
            headSha: framed.get('head') ?? '',
            branchSha: framed.get('branch') ?? '',
            exclude: options.exclude,
            committed: framed.get('committed') === '1',
            staleLocks: Number(framed.get('stale-locks')) || 0,
            cleared: traps.list,
            bytes: result.stdoutBytes,
        };
    }
    catch (error) {
        await promises_.rm(dir, { recursive: true, force: true });
        throw error;
    }
}
/**
 * git only says it could not write an object: the snapshot of uncommitted work is written in the sandbox
 * itself, so say where (its folder or volume), how much room is left, and that nothing was lost.
 */
async function captureFailure(sandbox, exitCode, said) {
    const failed = `Could not capture the changes of ${sandbox.name} (exit ${exitCode}): ${said}`;
    if (!/no space left|disk quota exceeded|unable to write|short write|write error/i.test(said))
        return failed;
    const stats = sandbox.isolation === 'disk' ? await promises_.statfs(sandbox.hostPath).catch(() => undefined) : undefined;
    const free = stats ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free` : '';
    return `Capturing the changes of ${sandbox.name} needs room in ${whereIs(sandbox)} for a snapshot of its uncommitted work, and writing it failed (No space left on device?${free}): nothing was imported; the sandbox is kept as it is, its commits included. Free some room there and run again. (git, exit ${exitCode}: ${said})`;
}

;// CONCATENATED MODULE: ./src/run/import.ts
// The host's side of the crossing: a bundle is data. Its header is read here, bounded, and must name only
// the refs the capture script writes; git then fetches it with `transfer.fsckObjects` into the sandbox's
// private store (host-made and host-configured), and from there only the sandbox's committed history
// moves into the parent, under the parent's bookkeeping ref. The snapshot of uncommitted work stays in
// the private store: every sandbox borrows the parent's store, so nothing uncommitted may go there.
// The parent's branch moves by fast-forward only.
// ADR 0003, ADR 0004 (docs/adr/).






const HEADER_MAX = 64 * 1024;
const MAX_BUNDLE_REFS = 8;
const FSCK = [
    ['transfer.fsckObjects', 'true'],
    ['fetch.fsckObjects', 'true'],
];
/** Reads a bundle's header (v2 or v3) as data, at most 64 KiB of it, and nothing else of the file. */
async function readBundleHeader(file) {
    const handle = await promises_.open(file, 'r');
    let text;
    try {
        const buffer = Buffer.alloc(HEADER_MAX);
        const { bytesRead } = await handle.read(buffer, 0, HEADER_MAX, 0);
        const end = buffer.subarray(0, bytesRead).indexOf('\n\n');
        if (end < 0)
            throw new Error('The bundle from the sandbox has no header end within 64 KiB: refused.');
        text = buffer.subarray(0, end).toString('latin1');
    }
    finally {
        await handle.close();
    }
    const [signature, ...lines] = text.split('\n');
    if (signature !== '# v2 git bundle' && signature !== '# v3 git bundle')
        throw new Error('What came back from the sandbox is not a git bundle: refused.');
    const header = { refs: [], prerequisites: [] };
    for (const line of lines) {
        if (line.startsWith('@'))
            continue; // v3 capabilities
        if (line.startsWith('-')) {
            header.prerequisites.push(line.slice(1).split(' ')[0]);
            continue;
        }
        const space = line.indexOf(' ');
        const sha = line.slice(0, space);
        if (!OID.test(sha))
            throw new Error('The bundle from the sandbox has a malformed header: refused.');
        header.refs.push({ sha, name: line.slice(space + 1) });
    }
    return header;
}
/** The refs a bundle of this sandbox may carry; anything else, or too many, is refused whole. */
function checkBundleRefs(header, branch) {
    if (header.refs.length > MAX_BUNDLE_REFS)
        throw new ImportLimitError(`The bundle from the sandbox names ${header.refs.length} refs (at most ${MAX_BUNDLE_REFS}): nothing was imported.`);
    const allowed = new Set(['HEAD', SNAPSHOT_REF, ...(branch ? [`refs/heads/${branch}`] : [])]);
    for (const ref of header.refs)
        if (!allowed.has(ref.name))
            throw new Error(`The bundle from the sandbox names a ref it may not (${JSON.stringify(ref.name)}): nothing was imported.`);
    if (!header.refs.some((r) => r.name === SNAPSHOT_REF))
        throw new Error('The bundle from the sandbox lacks the snapshot: nothing was imported.');
}
/**
 * git leaves a ref out of a bundle when it points at a commit the bundle stops at: such a ref (HEAD, the
 * branch) is one of the commits the parent has, and only then is the helper's word for it taken.
 */
function commitOutsideBundle(captured, said, what) {
    if (!said)
        return undefined;
    if (!captured.exclude.includes(said))
        throw new Error(`The sandbox's ${what} is neither in its bundle nor a commit the parent has: nothing was imported.`);
    return said;
}
async function importBundle(git, sandbox, captured) {
    const { parent } = sandbox;
    const header = await readBundleHeader(captured.bundle);
    checkBundleRefs(header, sandbox.branch);
    const store = privateStorePath(parent, sandbox);
    const inBundle = (name) => header.refs.some((r) => r.name === name);
    const hasBranch = inBundle(`refs/heads/${sandbox.branch}`);
    const headOutside = inBundle('HEAD') ? undefined : commitOutsideBundle(captured, captured.headSha, 'HEAD');
    if (!inBundle('HEAD') && !headOutside)
        throw new Error('The bundle from the sandbox lacks HEAD: nothing was imported.');
    const branchOutside = sandbox.branch && !hasBranch
        ? commitOutsideBundle(captured, captured.branchSha, `branch ${sandbox.branch}`)
        : undefined;
    return withRepositoryLock(parent.gitDir, async () => {
        await ensurePrivateStore(git, parent, store);
        const specs = [`+${SNAPSHOT_REF}:refs/run/snapshot`];
        if (!headOutside)
            specs.push('+HEAD:refs/run/head');
        if (hasBranch)
            specs.push(`+refs/heads/${sandbox.branch}:refs/run/branch`);
        await git.run(store, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', captured.bundle, ...specs], {
            config: FSCK,
            work: 'git-import',
            purpose: "fetching the sandbox's bundle, checked, into its private store",
        });
        const pin = [
            ...(headOutside ? [`update refs/run/head ${headOutside}`] : []),
            ...(branchOutside ? [`update refs/run/branch ${branchOutside}`] : []),
            ...(sandbox.branch && !hasBranch && !branchOutside ? ['delete refs/run/branch'] : []),
        ];
        if (pin.length)
            await git.run(store, ['update-ref', '--stdin'], { input: Buffer.from(pin.join('\n') + '\n') });
        const refs = sandboxRefs(sandbox);
        // Persistent sandboxes bring their branch (whatever HEAD is); transient ones what HEAD holds.
        const source = sandbox.branch
            ? hasBranch || branchOutside
                ? 'refs/run/branch'
                : undefined
            : 'refs/run/head';
        // What the store holds now is what the header named (the fetch took the refs at those commits, or
        // failed), or the commit the parent has that the helper named; the parent's record gets the source's.
        const named = (ref) => header.refs.find((r) => r.name === ref)?.sha;
        const head = commit(headOutside ?? named('HEAD'));
        const snapshot = commit(named(SNAPSHOT_REF));
        let tip;
        if (source) {
            await git.run(parent.path, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--', store, `+${source}:${refs.head}`], { config: FSCK, work: 'git-import', purpose: "fetching the run's commits, checked, into the parent" });
            tip =
                source === 'refs/run/head' ? head : commit(branchOutside ?? named(`refs/heads/${sandbox.branch}`));
        }
        else
            tip = commit(await resolve(git, parent.path, refs.head));
        const branchUpdate = sandbox.branch ? await fastForwardBranch(git, sandbox, tip) : undefined;
        return { tip, head, snapshot, store, branchUpdate };
    });
}
function commit(sha) {
    if (!sha || !OID.test(sha))
        throw new Error('The import named no commit.');
    return sha;
}
/** The parent's branch follows the sandbox's by fast-forward only; never when the parent has it checked out. */
async function fastForwardBranch(git, sandbox, tip) {
    const { parent, branch } = sandbox;
    const ref = `refs/heads/${branch}`;
    const [current, holder] = await Promise.all([
        git.resolveCommit(parent.path, ref),
        checkedOutIn(git, parent.path, ref),
    ]);
    if (current === tip)
        return 'up to date';
    if (holder)
        return `not moved: ${branch} is checked out in ${holder}`;
    if (!current) {
        await git.run(parent.path, ['update-ref', '-m', 'worktree-sandbox: import', '--', ref, tip, '']);
        return 'created';
    }
    const ff = await git.exec(parent.path, ['merge-base', '--is-ancestor', '--end-of-options', current, tip]);
    if (ff.exitCode !== 0)
        return `not moved: ${branch} in the parent is not an ancestor of the sandbox's (no fast-forward)`;
    await git.run(parent.path, [
        'update-ref',
        '-m',
        'worktree-sandbox: import (fast-forward)',
        '--',
        ref,
        tip,
        current,
    ]);
    return 'fast-forwarded';
}
/** The work tree of the parent (its own, or a linked one) that has `ref` checked out, if any. */
async function checkedOutIn(git, parentPath, ref) {
    // Without -z (git 2.36): the action supports git 2.31.
    const list = await git.run(parentPath, ['worktree', 'list', '--porcelain']);
    let current = '';
    for (const field of list.split('\n')) {
        if (field.startsWith('worktree '))
            current = field.slice('worktree '.length);
        else if (field === `branch ${ref}`)
            return current;
    }
    return undefined;
}
async function resolve(git, cwd, ref) {
    const sha = await git.resolveCommit(cwd, ref);
    if (!sha)
        throw new Error(`${ref} is missing in ${cwd} after the import.`);
    return sha;
}

;// CONCATENATED MODULE: ./src/run/changed-paths.ts
// Which files differ between two commits, in bounded memory and time whatever the commits hold.
//
// `git diff` queues every changed path before it prints the first one: a commit whose three small trees
// name 150,000 paths of 600 bytes (a pack of a few kilobytes) makes it hold hundreds of megabytes, more
// with `--stat`, before anything can be cut. So the trees are walked here instead, through
// `git cat-file` (which holds one object at a time):
//  - the first `maxPaths` changed paths are listed, in git's tree order;
//  - all of them are counted, each pair of trees once (a tree named 1,600 times is counted once and
//    multiplied), so that a tree bomb costs its distinct trees, not its paths;
//  - at most `maxTreeBytes` of tree objects are read, no tree larger than `maxTreeBytes / 4` is read at all,
//    and the walk stops after `timeoutMs`: past any of these the count is a lower bound (`exact: false`).
// Memory: the trees read (at most `maxTreeBytes`, ~3x that once parsed), the listed paths, and one number
// per pair of trees counted.

/** What the report keeps of a run's paths: 1,000 names, 64 MiB of trees, a minute. */
const REPORT_PATH_BOUNDS = {
    maxPaths: 1_000,
    maxTreeBytes: 64 * 1024 * 1024,
    timeoutMs: 60_000,
};
class Stop extends Error {
}
/** Reads and parses trees within the byte budget and the time limit. */
class Trees {
    reader;
    bounds;
    deadline;
    bytesRead = 0;
    constructor(reader, bounds, deadline) {
        this.reader = reader;
        this.bounds = bounds;
        this.deadline = deadline;
    }
    async entries(oid) {
        if (!oid)
            return [];
        if (!OID.test(oid))
            throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
        if (Date.now() > this.deadline)
            throw new Stop(`it took longer than ${this.bounds.timeoutMs / 1000} s`);
        const info = await this.reader.info(oid);
        if (!info || info.type !== 'tree')
            throw new Error(`${oid} is not a tree`);
        if (info.size > this.bounds.maxTreeBytes / 4)
            throw new Stop(`a tree of ${info.size} bytes is larger than ${this.bounds.maxTreeBytes / 4} bytes`);
        if (this.bytesRead + info.size > this.bounds.maxTreeBytes)
            throw new Stop(`the trees are larger than ${this.bounds.maxTreeBytes} bytes`);
        this.bytesRead += info.size;
        const object = await this.reader.read(oid);
        if (!object || object.type !== 'tree')
            throw new Error(`${oid} is not a tree`);
        return parseTree(object.body, oid.length / 2);
    }
}
/** A tree object's entries: `<mode> <name>\0<binary id>`, in git's order. */
function parseTree(body, idBytes) {
    const entries = [];
    let at = 0;
    while (at < body.length) {
        const space = body.indexOf(32, at);
        const nul = body.indexOf(0, space + 1);
        if (space < 0 || nul < 0 || nul + 1 + idBytes > body.length)
            throw new Error('a malformed tree');
        const mode = body.toString('latin1', at, space);
        entries.push({
            mode,
            name: body.toString('utf8', space + 1, nul),
            oid: body.toString('hex', nul + 1, nul + 1 + idBytes),
            tree: mode === '40000',
        });
        at = nul + 1 + idBytes;
    }
    return entries;
}
/** git's order of a tree's entries: by name's bytes, a tree's name as if it ended in `/`. */
const orderKey = (e) => Buffer.from(e.tree ? `${e.name}/` : e.name);
/** The entries that differ between two trees, paired by name, in git's order. */
function pair(a, b) {
    const byName = new Map();
    for (const e of a)
        byName.set(e.name, { a: e });
    for (const e of b) {
        const side = byName.get(e.name);
        if (side)
            side.b = e;
        else
            byName.set(e.name, { b: e });
    }
    return [...byName.values()]
        .filter((s) => !s.a || !s.b || s.a.oid !== s.b.oid || s.a.mode !== s.b.mode)
        .sort((x, y) => Buffer.compare(orderKey((x.a ?? x.b)), orderKey((y.a ?? y.b))));
}
/** The changed paths between two trees (undefined: the empty tree), listed and counted within `bounds`. */
async function changedPaths(git, cwd, from, to, bounds = REPORT_PATH_BOUNDS) {
    const reader = await git.objectReader(cwd, bounds.timeoutMs + 10_000);
    try {
        const trees = new Trees(reader, bounds, Date.now() + bounds.timeoutMs);
        // One question at a time: the reader's answers come back in order on one pipe.
        const fromTree = await treeOf(reader, from);
        const toTree = await treeOf(reader, to);
        const paths = [];
        let listedAll = true;
        try {
            listedAll = await changed_paths_list(trees, fromTree, toTree, '', paths, bounds.maxPaths);
        }
        catch (error) {
            if (!(error instanceof Stop))
                throw error;
            return { paths, count: paths.length, exact: false, stopped: error.message };
        }
        if (listedAll)
            return { paths, count: paths.length, exact: true };
        const counter = new Counter(trees);
        try {
            return { paths, count: await counter.count(fromTree, toTree), exact: true };
        }
        catch (error) {
            if (!(error instanceof Stop))
                throw error;
            return { paths, count: Math.max(paths.length, counter.partial), exact: false, stopped: error.message };
        }
    }
    finally {
        await reader.close();
    }
}
/** The tree of a commit (or a tree), by id. */
async function treeOf(reader, oid) {
    if (!oid)
        return undefined;
    if (!OID.test(oid))
        throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
    const info = await reader.info(oid);
    if (info?.type === 'tree')
        return oid;
    if (info?.type !== 'commit' || info.size > 1024 * 1024)
        throw new Error(`${oid} is not a commit`);
    const commit = await reader.read(oid);
    const tree = /^tree ([0-9a-f]+)$/m.exec(commit?.body.toString('latin1', 0, 200) ?? '')?.[1];
    if (!tree)
        throw new Error(`${oid} names no tree`);
    return tree;
}
/** Lists changed paths in order until `max` are listed; true when there were no more. */
async function changed_paths_list(trees, a, b, prefix, out, max) {
    const ea = await trees.entries(a);
    const eb = await trees.entries(b);
    for (const { a: x, b: y } of pair(ea, eb)) {
        const name = prefix + (x ?? y).name;
        // A file on one side: one path (a tree on the other side adds its own below).
        if ((x && !x.tree) || (y && !y.tree)) {
            if (out.length >= max)
                return false;
            out.push(name);
        }
        const subA = x?.tree ? x.oid : undefined;
        const subB = y?.tree ? y.oid : undefined;
        if ((subA || subB) && !(await changed_paths_list(trees, subA, subB, `${name}/`, out, max)))
            return false;
    }
    return true;
}
/** Counts changed paths, each pair of trees once. */
class Counter {
    trees;
    known = new Map();
    /** What was counted before the walk stopped (a lower bound). */
    partial = 0;
    constructor(trees) {
        this.trees = trees;
    }
    async count(a, b) {
        const key = `${a ?? ''}:${b ?? ''}`;
        const known = this.known.get(key);
        if (known !== undefined) {
            this.partial += known;
            return known;
        }
        const ea = await this.trees.entries(a);
        const eb = await this.trees.entries(b);
        let n = 0;
        for (const { a: x, b: y } of pair(ea, eb)) {
            if ((x && !x.tree) || (y && !y.tree)) {
                n += 1;
                this.partial += 1;
            }
            const subA = x?.tree ? x.oid : undefined;
            const subB = y?.tree ? y.oid : undefined;
            if (subA || subB)
                n += await this.count(subA, subB);
        }
        this.known.set(key, n);
        return n;
    }
}

;// CONCATENATED MODULE: ./src/ui/untrusted-markdown.ts
// The one renderer of text the action did not write (a reply, a log tail, file names, commit subjects, a
// patch, host and model names) into Markdown that GitHub renders: the job summary and the pull-request
// bot's comments. GitHub renders with cmark-gfm, which takes at most 255 backticks as a fence and makes
// no code span longer than 80, so neither a fence "longer than any in the text" nor a code span can hold
// any text (docs/adr/0012-untrusted-text-in-pre-blocks.md). Here nothing depends on what the text holds:
// - a block is an HTML `<pre>` block with `&`, `<` and `>` written as entities. cmark-gfm ends such a
//   block only at a line that holds `</pre>`, which the text can no longer spell; blank lines, fences,
//   `<!--`, `</details>` and images inside it are only characters;
// - inline text (a table cell, a list item, a sentence) has every character Markdown or HTML reads as
//   markup written as a character reference, which cmark-gfm decodes to a literal character and never to
//   markup, and the places GitHub's autolinks start at (`https:`, `www.`, `@`, `#`) broken.
// Both make mentions inert, show control and bidirectional characters as visible escapes, take `\r` as a
// line break (as Markdown and the runner do), replace half a surrogate pair, and are bounded in the
// characters they write: the text is cut between characters before it is escaped, counted after, and what
// was left out is counted (a cut never falls inside a character, nor inside an entity made here).
/** After an `@`, so that `@name` and `@org/team` are no mention and link nobody. */
const MENTION_BREAK = '\u200D';
// C0 controls but tab and line feed, DEL, C1 controls, the line and paragraph separators, and the
// bidirectional marks, overrides and isolates that would show the text in another order than it is.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const untrusted_markdown_NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/** Half of a surrogate pair with no other half: shown as U+FFFD, as a decoder shows a broken sequence. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** `@` that starts a user or team name (GitHub's names: letters, digits, hyphens; we take `_` too). */
const MENTION = /@(?=[A-Za-z0-9_-])/g;
/** Every `@name` and `@org/team` made inert; nothing else changes. */
function neutraliseMentions(text) {
    return text.replace(MENTION, `@${MENTION_BREAK}`);
}
const visible = (c) => untrusted_markdown_NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** Line breaks as `\n` alone (a lone `\r` is a line break to Markdown and to the runner), controls escaped. */
function plainLines(text) {
    return String(text)
        .replace(LONE_SURROGATE, '\uFFFD')
        .replace(/\r\n?/g, '\n')
        .replace(new RegExp(HIDDEN.source, 'g'), visible);
}
/**
 * The escaped forms of `pieces` (whole characters, or a few that escape together), as many from the start
 * as fit in `max` characters of output: the cut falls between pieces, never inside one or its escape.
 */
function fit(pieces, escape, max) {
    let shown = '';
    let i = 0;
    for (; i < pieces.length; i++) {
        const out = escape(pieces[i]);
        if (shown.length + out.length > max)
            break;
        shown += out;
    }
    let leftOut = 0;
    for (let j = i; j < pieces.length; j++)
        leftOut += [...pieces[j]].length;
    return { shown, leftOut };
}
const HTML_ENTITY = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
/**
 * Untrusted text as one `<pre>` block that nothing in it can end or escape, shown as written (line breaks,
 * indentation, blank lines), mentions inert, at most `maxChars` characters between the tags (counted as
 * written, entities included; the rest left out and counted). `lang` (`diff`) only names the language for
 * GitHub's highlighting; `keepMentions` is for text to copy whose `@` are the action's own (`@npm`), and
 * safe anyway: GitHub links no mention inside `<pre>`. The block starts and ends a line; put a blank line
 * before and after it.
 */
function untrusted_markdown_untrustedBlock(text, maxChars, options = {}) {
    const { lang = '' } = options;
    const safe = options.keepMentions ? plainLines(text) : neutraliseMentions(plainLines(text));
    const { shown, leftOut } = fit(Array.from(safe), (c) => HTML_ENTITY[c] ?? c, Math.max(0, maxChars));
    const open = lang ? `<pre lang="${lang.replace(/[^a-z0-9+-]/gi, '')}">` : '<pre>';
    // HTML drops one line break right after `<pre>`: the text's first line is its own.
    return { markdown: `${open}\n${shown}\n</pre>`, leftOut };
}
// What Markdown or HTML reads as markup (written as character references), and what autolinks start at.
// A colon before a space starts no link: it stays as it is (`holds work: 2 files`).
const INLINE_PIECE = /www\.|: |[\s\S]/giu;
const MARKUP = /^[\\`*_~[\]<>|&!$]$/;
/**
 * Nothing a reader sees, written between the characters that GitHub's autolinks look for: `https://`,
 * `www.`, `user@host`, `@mention` and `#123` are no longer those strings, in the Markdown source or in
 * the text GitHub's renderer decodes from it. A reference, not the character, so that it is visible in a
 * log line.
 */
const BREAK = '&#8203;';
function inlinePiece(piece) {
    if (piece === ': ')
        return piece;
    if (piece.length > 1 && piece.toLowerCase() === 'www.')
        return `${piece[0]}${BREAK}${piece.slice(1)}`;
    if (piece === ':')
        return `:${BREAK}`;
    if (piece === '@' || piece === '#')
        return `${BREAK}&#${piece.charCodeAt(0)};${BREAK}`;
    if (HIDDEN.test(piece) || piece === '\n' || piece === '\r' || piece === '\t')
        return `&#92;${visible(piece).slice(1)}`;
    if (MARKUP.test(piece))
        return `&#${piece.charCodeAt(0)};`;
    return piece;
}
/**
 * Untrusted text inside Markdown (a table cell, a list item, a sentence) or a warning: shown as the same
 * characters and nothing else, on one line. Control and bidirectional characters shown as escapes, every
 * markup character (`|`, `<`, `[`, `` ` ``, `*`, `&`, …) a character reference, autolinks and mentions
 * broken, so that no link, image, HTML, code span, table cell or mention can come of it. At most `max`
 * characters as written (entities included), then how many characters were left out. `quote` shows the
 * text JSON-quoted (where it starts and ends, and its escapes).
 */
function untrusted_markdown_untrustedInline(text, max = INLINE_MAX, quote = false) {
    const raw = String(text).replace(LONE_SURROGATE, '\uFFFD');
    const { shown, leftOut } = fit((quote ? JSON.stringify(raw) : raw).match(INLINE_PIECE) ?? [], inlinePiece, max);
    return shown + (leftOut > 0 ? ` … (${leftOut} more characters)` : '');
}
/** The most characters of one piece of inline text, as written. */
const INLINE_MAX = 2_000;
/** Untrusted inline text shown as code (monospace): `untrustedInline` inside `<code>` tags. */
function untrustedCode(text, max = INLINE_MAX) {
    return `<code>${untrusted_markdown_untrustedInline(text, max)}</code>`;
}
/** The action's own sentence that may quote untrusted text: one line, inert (untrustedInline). */
function untrusted_markdown_inlineText(text) {
    return untrusted_markdown_untrustedInline(text, 4 * INLINE_MAX);
}
/** Images listed as links, at most. */
const MAX_IMAGE_LINKS = 10;
/** An image's address: http(s), and nothing that could end the link or the line around it. */
const IMAGE_URL = String.raw `https?:\/\/[^\s<>()"'\x60\\]{1,2000}`;
/** `![alt](url "title")`, and `<img … src="url" …>`: bounded at every repetition, read in one pass each. */
const MARKDOWN_IMAGE = new RegExp(String.raw `!\[([^\]\n]{0,200})\]\(\s{0,10}<?(${IMAGE_URL})`, 'g');
const HTML_IMAGE = new RegExp(String.raw `<img\b[^>]{0,500}?\bsrc\s{0,10}=\s{0,10}["']?(${IMAGE_URL})`, 'gi');
/**
 * The images that untrusted text would show, as one line of links (the image is never loaded: a reader
 * opens it if they choose), in the order of the text; empty when there are none. Every host is an outside
 * host here: the text is shown in a `<pre>` block, so none of its images is rendered anyway.
 */
function untrusted_markdown_imageLinks(text) {
    const found = [];
    for (const match of text.matchAll(MARKDOWN_IMAGE))
        found.push({ at: match.index, alt: match[1].trim(), url: match[2] });
    for (const match of text.matchAll(HTML_IMAGE))
        found.push({ at: match.index, alt: '', url: match[1] });
    if (!found.length)
        return '';
    found.sort((a, b) => a.at - b.at);
    const links = found
        .slice(0, MAX_IMAGE_LINKS)
        .map(({ alt, url }) => `[${untrusted_markdown_untrustedInline(alt || 'image', 1_000)}](${url})`);
    const more = found.length > MAX_IMAGE_LINKS ? `, and ${found.length - MAX_IMAGE_LINKS} more` : '';
    return `Images in the reply, not shown here: ${links.join(', ')}${more}.`;
}

;// CONCATENATED MODULE: ./src/ui/markdown.ts
// The action's own structure around what it shows (the job summary, the bot's comments, the outputs):
// tables, collapsed sections, cut notes, bounded JSON. Its inputs come inert (untrusted-markdown.ts). Not
// `core.summary.addTable`/`addDetails`: under cmark-gfm they render otherwise (see the spec).

/** One table line; an empty cell is one space. */
const tableRow = (cells) => `|${cells.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
/** A table's head: its cells, then the delimiter row (columns in `right` aligned right). */
function tableHead(head, right = []) {
    return `${tableRow(head)}\n|${head.map((_, i) => (right.includes(i) ? '---:' : '---')).join('|')}|`;
}
/** A whole table, one line a row. */
function markdown_table(head, rows) {
    return [tableHead(head), ...rows.map(tableRow)].join('\n');
}
/** A collapsed section: the body (a `<pre>` block too) starts a block of its own after a blank line. */
function markdown_details(summary, body) {
    return `<details><summary>${summary}</summary>\n\n${body}\n</details>`;
}
/** Untrusted text as a `<pre>` block of at most `max` characters; `cut` says, after it, how many were left out. */
function markdown_blockWithCut(text, max, cut) {
    const { markdown, leftOut } = untrustedBlock(text, max);
    return leftOut ? `${markdown}\n\n${cut(markdown_thousands(leftOut))}` : markdown;
}
const byteLength = (text) => Buffer.byteLength(text, 'utf8');
/**
 * A whole number as `toLocaleString('en-US')` writes it (12,345), without its cost: the first call loads
 * ICU's number formats, 20–30 ms of a run's step.
 */
function markdown_thousands(n) {
    return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');
}
/** A JSON array of the first rows that fit in `maxBytes` (UTF-8, as GitHub bounds an output); `omitted` counts the others. */
function jsonRows(rows, maxBytes) {
    const parts = [];
    let size = 2;
    for (const row of rows) {
        const text = JSON.stringify(row);
        const n = byteLength(text) + (parts.length ? 1 : 0);
        if (size + n > maxBytes)
            break;
        parts.push(text);
        size += n;
    }
    return { json: `[${parts.join(',')}]`, omitted: rows.length - parts.length };
}

;// CONCATENATED MODULE: ./src/run/report.ts
// What a run changed, computed on the host from repositories only the host configures: the parent (for
// commits) and the sandbox's private store (for the snapshot of its work tree). Nothing is read from the
// sandbox itself. File names here came from the sandbox: they are printed fenced or escaped.




/** Up to this many changed paths, the diff stat is git's (with line counts); above, a list of the first. */
const STAT_MAX_PATHS = 1_000;
/** The most paths a list in place of a stat names. */
const STAT_LISTED_PATHS = 100;
/** The most bytes of diff stat kept (the job summary, the `diff-stat` output). */
const STAT_MAX_BYTES = 64 * 1024;
// Bounds (so that nothing a sandbox holds can make the host's git or this process hold it all): the
// changed and uncommitted files are listed (at most 1,000 each) and counted by walking trees
// (changed-paths.ts: at most 64 MiB of trees, one minute); git's own diff runs only for the stat, and only
// when at most STAT_MAX_PATHS paths changed, without rename detection (quadratic) and with files over
// 1 MiB taken as binary (never loaded whole); its output is streamed and cut at STAT_MAX_BYTES.
async function buildReport(git, parentPath, startSha, imported, capture) {
    const { store, snapshot, head, tip } = imported;
    const changedSinceStart = changedPaths(git, store, startSha, snapshot);
    const [commits, changed, dirty, unpushed] = await Promise.all([
        countCommits(git, parentPath, [`${startSha}..${tip}`]),
        changedSinceStart,
        // With no new commit, what is uncommitted is what changed since the start: one walk answers both
        // (two git processes fewer).
        head === startSha ? changedSinceStart : changedPaths(git, store, head, snapshot),
        savedRefs(git, parentPath).then((saved) => countUnsaved(git, parentPath, [tip], saved)),
    ]);
    if (!commits)
        throw new Error(`git could not count the commits from ${startSha} to ${tip}`);
    const stopped = changed.stopped ?? dirty.stopped;
    return {
        headSha: head,
        tip,
        currentBranch: capture.headRef.replace(/^refs\/heads\//, ''),
        commits: commits.count,
        ...(commits.atLeast || unpushed?.atLeast ? { commitsAtLeast: true } : {}),
        changedFiles: changed.paths,
        changedCount: changed.count,
        uncommitted: dirty.paths,
        uncommittedCount: dirty.count,
        uncommittedExact: dirty.exact,
        ...(stopped ? { countsStopped: stopped } : {}),
        diffStat: await diffStat(git, store, startSha, snapshot, changed),
        // git could not say: counted as one, so that work is never taken for none
        unpushedCommits: unpushed?.count ?? 1,
        committed: capture.committed,
        staleLocks: capture.staleLocks,
        ...(capture.cleared?.length ? { trapsCleared: capture.cleared } : {}),
        branchUpdate: imported.branchUpdate,
    };
}
/** git's `--stat` for a bounded number of paths; otherwise the first paths and how many were left out. */
async function diffStat(git, store, from, to, changed) {
    if (changed.count === 0 && changed.exact)
        return '';
    if (!changed.exact || changed.count > STAT_MAX_PATHS)
        return pathsInsteadOfStat(changed);
    const lines = [];
    let bytes = 0;
    let cut = 0;
    const result = await git.stream(store, ['diff', ...NO_EXTERNAL_DIFF, '--stat=120', from, to, '--'], {
        config: [
            ['diff.renames', 'false'],
            ['core.bigFileThreshold', '1m'],
        ],
        maxLineBytes: 4096,
        onLine: (line, stream) => {
            if (stream !== 'stdout')
                return;
            if (bytes + line.length + 1 > STAT_MAX_BYTES)
                cut++;
            else {
                lines.push(line);
                bytes += line.length + 1;
            }
        },
    });
    if (result.exitCode !== 0)
        return pathsInsteadOfStat(changed);
    if (cut)
        lines.push(`… ${cut} more line(s) of the stat left out (over ${STAT_MAX_BYTES} bytes)`);
    return lines.join('\n').trimEnd();
}
function pathsInsteadOfStat(changed) {
    const shown = changed.paths.slice(0, STAT_LISTED_PATHS);
    let bytes = 0;
    const lines = [];
    for (const p of shown) {
        if (bytes + p.length + 2 > STAT_MAX_BYTES / 2)
            break;
        lines.push(` ${p}`);
        bytes += p.length + 2;
    }
    lines.push(leftOut(changed, lines.length));
    return lines.join('\n');
}
/** "… and 152,600 more paths" for a list that names `shown` of `changed`'s paths. */
function leftOut(changed, shown) {
    const more = changed.count - shown;
    const total = `${changed.exact ? '' : 'at least '}${markdown_thousands(changed.count)}`;
    const why = changed.exact ? '' : ` (counting stopped: ${changed.stopped})`;
    return `… and ${changed.exact ? '' : 'at least '}${markdown_thousands(more)} more path(s): ${total} changed${why}; no line counts over ${markdown_thousands(STAT_MAX_PATHS)} paths`;
}
/**
 * Commits reachable from `tip` and from none of `not` (commits, refs or `--remotes`), in the parent, up to
 * MAX_COUNTED_COMMITS; 1 when git cannot say, so that work is never taken for none.
 */
async function commitsNotIn(git, parentPath, tip, not) {
    return (await countCommits(git, parentPath, [tip, '--not', ...not]))?.count ?? 1;
}
/** Uncommitted files or commits no remote has; a count that stopped at its bounds is taken for work. */
function holdsWork(report) {
    return report.uncommittedCount > 0 || !report.uncommittedExact || report.unpushedCommits > 0;
}

;// CONCATENATED MODULE: ./src/run/collect.ts




/** Capture in a helper, import on the host, report from the parent. */
async function collectChanges(git, engine, sandbox, settings, commitMessage) {
    const parentBranch = sandbox.branch
        ? await git.resolveCommit(sandbox.parent.path, `refs/heads/${sandbox.branch}`)
        : undefined;
    const captured = await captureSandbox(engine, sandbox, {
        image: settings.image,
        commit: commitMessage !== undefined ? { message: commitMessage } : undefined,
        author: settings.author,
        committer: settings.committer,
        exclude: [...new Set([sandbox.startSha, ...(parentBranch ? [parentBranch] : [])])],
        maxBytes: settings.maxImportBytes,
        work: 'capture',
    });
    try {
        const imported = await importBundle(git, sandbox, captured);
        return await buildReport(git, sandbox.parent.path, sandbox.startSha, imported, captured);
    }
    finally {
        await promises_.rm(captured.dir, { recursive: true, force: true });
    }
}

;// CONCATENATED MODULE: ./src/run/cleanup.ts
// The post step: runs after success, failure and cancel. Removes the command's container if it is still
// there, then applies the cleanup policy. It never fails the job: problems become warnings.
// Everything after the container happens under the sandbox's lock, as every removal does: another run
// (another job on the same branch) may be using the sandbox, and then nothing of it is touched.

















/**
 * How long the post step waits for the sandbox's lock: long enough for the lock of a main step that was
 * killed (on cancel) to go stale, so that its own run's lock never keeps it; a live holder refreshes its
 * lock, and the post step then gives up and touches nothing.
 */
const POST_LOCK_WAIT_MS = LOCK_STALE_MS + 3_000;
async function cleanupRun(state, ui, tempDir, options = {}) {
    const engine = (0,engine_engine/* createEngine */.P)(state.engine);
    const sandbox = state.location;
    // With the engine's view unproven, only a command container the engine created proves it (asked before
    // it goes: removing a container that never was may succeed too).
    const proven = !state.viewProof ||
        state.exitCode !== undefined ||
        (!!state.container && (await engine.containerExists(state.container)) === true);
    const containerGone = state.container ? await engine.removeContainer(state.container) : false;
    if (containerGone)
        ui.info(`Removed container ${state.container}.`);
    // A killed run's network sidecar (named after the command's container), after the command's: Podman
    // keeps a container that another one still joins.
    const sidecar = state.container && (0,leftovers/* sidecarName */.fg)(state.container);
    if (sidecar && (await engine.removeContainer(sidecar)))
        ui.info(`Removed container ${sidecar}.`);
    if (state.viewProof) {
        await removeProbeFiles(state.viewProof.files);
        // The engine never created the command's container that was to prove it sees the sandbox's folders:
        // a helper now might find other folders under the same names.
        if (!proven)
            return keep(ui, sandbox, "the main step stopped before the engine was shown to see its folders (its command's container was never created): nothing of it was touched");
    }
    const lock = options.lockHeld
        ? { release: async () => undefined }
        : await lockForCleanup(sandbox, options.lockWaitMs ?? POST_LOCK_WAIT_MS);
    if ('heldBy' in lock) {
        const who = lock.heldBy ? `another run holds it (${lock.heldBy})` : 'another run holds its lock';
        return { ...keep(ui, sandbox, `${who}: nothing of it was touched`), heldBy: lock.heldBy };
    }
    if ('failed' in lock)
        return keep(ui, sandbox, `its lock could not be taken (${lock.failed}): nothing of it was touched`);
    try {
        // The note says a container of this sandbox may exist: ours is gone, and no other run holds it.
        if (containerGone)
            await promises_.rm(containerNotePath(sandbox.parent.gitDir, sandbox.name), { force: true });
        return await cleanupLocked(state, engine, ui, tempDir);
    }
    finally {
        await lock.release();
    }
}
/**
 * The engine-view probe's helper that a main step killed before its end left (created, never started):
 * removed, whatever else the main step got to (it is saved before anything else). Never throws: the helper
 * is labelled, and the reaper removes such helpers after an hour (engine-probe.ts, removeStaleProbes).
 */
async function removeLeftProbe(state, ui) {
    const probe = state?.probe;
    if (!probe || !PROBE_NAME.test(probe.name))
        return;
    const engine = (0,engine_engine/* createEngine */.P)(probe.engine);
    // Asked first: removing a container that is not there succeeds too, with some engines.
    if ((await engine.containerExists(probe.name).catch(() => undefined)) !== true)
        return;
    if (await engine.removeContainer(probe.name).catch(() => false))
        ui.info(`Removed the helper ${probe.name} that checked what the engine sees.`);
}
async function lockForCleanup(sandbox, waitMs) {
    try {
        return { release: await lockSandbox(sandbox.parent.gitDir, sandbox.name, waitMs) };
    }
    catch (error) {
        if (error instanceof LockTimeoutError)
            return { heldBy: error.holder };
        // Without the lock nothing is removed (the parent may be gone: the reaper sees to orphans).
        return { failed: error.message };
    }
}
async function cleanupLocked(state, engine, ui, tempDir) {
    const git = await createGit();
    const sandbox = state.location;
    if (!state.ready)
        return recoverHalfCreated(git, engine, sandbox, ui);
    if (state.secretsFound)
        return keep(ui, sandbox, 'the secret scan held its work back: kept for a person to look at, whatever cleanup says');
    if (state.cleanup === 'never')
        return keep(ui, sandbox, 'cleanup: never');
    if (state.cleanup === 'auto' && sandbox.kind === 'persistent')
        return keep(ui, sandbox, 'persistent sandboxes are kept for reuse (cleanup: auto)');
    const prepared = { ...sandbox, reused: true, startSha: state.startSha ?? '' };
    // The main step stopped before it brought the work back: do it now, the same way.
    let collected = state.report;
    if (!collected) {
        try {
            const report = await collectChanges(git, engine, prepared, { ...state.collect, image: state.image });
            reportCleared(ui, sandbox.name, report.trapsCleared ?? []);
            collected = report;
        }
        catch (error) {
            // Work that cannot be brought back (over max-import-size, a capture that fails or runs out) cannot
            // be saved either: the sandbox is kept whatever the policy, so that nothing is lost; the reaper
            // judges it later like any other.
            const why = `its work could not be brought back, so it could not be saved (${sandboxText(error.message)})`;
            ui.warning(`Kept sandbox ${sandbox.name} (${whereIs(sandbox)}): ${why}.`);
            return { removed: false, kept: why };
        }
    }
    // Counted now, not when the report was made: the main step may have pushed since. Saved means what the
    // reaper means (src/sandbox/saved.ts): on a remote or a tag; on a branch only in a parent with no remote.
    const saved = await savedRefs(git, sandbox.parent.path);
    const count = await countUnsaved(git, sandbox.parent.path, [sandboxRefs(sandbox).head], saved);
    const unsaved = count?.count === 0
        ? undefined
        : {
            count: count?.count ?? 1,
            ...(count === undefined || count.atLeast ? { atLeast: true } : {}),
            branch: collected.currentBranch || sandbox.branch || undefined,
            hasRemote: saved.hasRemote,
        };
    const report = { ...collected, unpushedCommits: unsaved?.count ?? 0 };
    if (state.cleanup === 'auto') {
        if (holdsWork(report))
            return { ...keep(ui, sandbox, describeWork(report, unsaved)), unsaved };
        await removeSandbox(git, engine, sandbox);
        ui.info(`Removed transient sandbox ${sandbox.name}: it held no work.`);
        return { removed: true };
    }
    const files = holdsWork(report) ? await saveWork(git, prepared, report, saved.revs, tempDir, ui) : {};
    await removeSandbox(git, engine, sandbox);
    ui.info(`Removed sandbox ${sandbox.name} (cleanup: always).`);
    return { removed: true, ...files };
}
/** A killed run's probe files (named as the probe names them; anything else named there is left). */
async function removeProbeFiles(files) {
    await Promise.all(files
        .filter((file) => external_node_path_.isAbsolute(file) && external_node_path_.basename(file).startsWith(PROBE_FILE_PREFIX))
        .map((file) => promises_.rm(file, { force: true }).catch(() => undefined)));
}
function keep(ui, sandbox, why) {
    ui.info(`Kept sandbox ${sandbox.name} (${whereIs(sandbox)}): ${why}.`);
    return { removed: false, kept: why };
}
function describeWork(report, unsaved) {
    const parts = [];
    if (report.uncommittedCount || !report.uncommittedExact)
        parts.push(`${report.uncommittedExact ? '' : 'at least '}${report.uncommittedCount} uncommitted file(s)`);
    if (unsaved)
        parts.push(describeUnsaved(unsaved));
    return `it holds work: ${parts.join(', ')}`;
}
/** The main step stopped while creating the sandbox: undo what it half-created, keep anything whole. */
async function recoverHalfCreated(git, engine, sandbox, ui) {
    const refs = sandboxRefs(sandbox);
    const { parent } = sandbox;
    // Creation writes the sandbox without the repository lock, holding only the sandbox's: a `creating`
    // record may be another run's creation under way. cleanupRun holds the sandbox's lock here (it waited
    // longer than a dead main step's lock stays live), so no live run is creating it now.
    // Only a `creating` record says that this action made something there; without any record, nothing of
    // ours is there (what is, is not touched).
    const half = await withRepositoryLock(parent.gitDir, () => git.refExists(parent.path, refs.creating));
    if (!half)
        return keep(ui, sandbox, 'no creation of it was under way when the main step stopped');
    // The create helper the main step started may still be writing the volume: it goes first.
    await engine.removeContainersLabelled((0,engine_labels/* sandboxHelperLabels */.xN)(sandbox)).catch(() => undefined);
    await removeSandbox(git, engine, sandbox).catch(() => undefined);
    ui.info(`The main step stopped before sandbox ${sandbox.name} was ready: removed what it had half-created.`);
    return { removed: true };
}
/**
 * `cleanup: always` with work in the sandbox: uncommitted work as a binary patch (from the private store's
 * snapshot) and the commits the parent has not saved as a bundle (from the parent), both under RUNNER_TEMP.
 */
async function saveWork(git, sandbox, report, savedRevs, tempDir, ui) {
    const dir = external_node_path_.join(tempDir, 'worktree-sandbox');
    await promises_.mkdir(dir, { recursive: true });
    const base = external_node_path_.join(dir, `${sandbox.project}-${sandbox.name}`);
    const saved = {};
    if (report.uncommittedCount || !report.uncommittedExact) {
        const store = privateStorePath(sandbox.parent, sandbox);
        saved.patch = await saveUncommitted(git, store, base, report);
        ui.info(`Saved the uncommitted work of ${sandbox.name} to ${saved.patch}.`);
    }
    if (report.unpushedCommits > 0) {
        saved.bundle = `${base}.bundle`;
        await git.run(sandbox.parent.path, [
            'bundle',
            'create',
            '--quiet',
            saved.bundle,
            sandboxRefs(sandbox).head,
            '--not',
            ...savedRevs,
        ]);
        ui.info(`Saved ${report.unpushedCommits} commit(s) of ${sandbox.name} that no remote has to ${saved.bundle}.`);
    }
    return saved;
}
/** Up to this many uncommitted files, they are saved as a patch; above, as a bundle of the snapshot commit. */
const PATCH_MAX_PATHS = 10_000;
/** The largest patch written; a larger one is replaced by the bundle. */
const PATCH_MAX_BYTES = 2 * 1024 ** 3;
/**
 * The uncommitted work as a binary patch, streamed to its file (never held here); when there are too many
 * files for git's diff to stay small (it holds every path it compares), or the patch would be larger than
 * PATCH_MAX_BYTES, as a bundle of the snapshot commit instead (`git fetch <bundle>` then `git checkout`
 * it): a bundle stores each object once, however many paths name it.
 */
async function saveUncommitted(git, store, base, work) {
    const patch = `${base}.patch`;
    if (work.uncommittedExact && work.uncommittedCount <= PATCH_MAX_PATHS) {
        await promises_.rm(patch, { force: true });
        const written = await git.stream(store, ['diff', '--binary', ...NO_EXTERNAL_DIFF, 'refs/run/head', 'refs/run/snapshot', '--'], { stdoutFile: { path: patch, maxBytes: PATCH_MAX_BYTES } });
        if (written.exitCode === 0 && !written.overLimit)
            return patch;
        await promises_.rm(patch, { force: true });
        if (!written.overLimit)
            throw new Error(`git diff failed: ${written.stderrTail.slice(-3).join(' ')}`);
    }
    const bundle = `${base}.uncommitted.bundle`;
    await git.run(store, [
        'bundle',
        'create',
        '--quiet',
        bundle,
        'refs/run/snapshot',
        '--not',
        'refs/run/head',
    ]);
    return bundle;
}

;// CONCATENATED MODULE: ./src/sandbox/branch.ts



/** The protocol itself, as a pure decision. */
function planBranch(facts, newTransientName = transientSandboxName) {
    if (!facts.branch) {
        return {
            kind: 'transient',
            sandbox: newTransientName(),
            branch: '',
            source: 'detached',
            startPoint: facts.baseCommit,
        };
    }
    const sandbox = persistentSandboxName(facts.branch);
    if (facts.localExists)
        return { kind: 'persistent', sandbox, branch: facts.branch, source: 'local', startPoint: facts.branch };
    if (facts.remoteExists) {
        return {
            kind: 'persistent',
            sandbox,
            branch: facts.branch,
            source: 'remote',
            startPoint: `origin/${facts.branch}`,
        };
    }
    return { kind: 'persistent', sandbox, branch: facts.branch, source: 'new', startPoint: facts.baseCommit };
}
/**
 * Asks origin for the branch; when it has it, `origin/<branch>` is set to its commit. The wait on the
 * network holds no lock (git.ts `fetchCommit`), so a slow or hung origin holds up this run only, never
 * another run of the same parent; only the ref update takes the repository lock, for a moment. False
 * when origin refuses (no such branch); a remote that does not answer in time fails the run, naming
 * the fetch, rather than start the branch anew beside one origin may have.
 */
async function fetchOriginBranch(git, parent, branch) {
    let commit;
    try {
        commit = await git.fetchCommit(parent.path, 'origin', `refs/heads/${branch}`, `asking origin for branch ${JSON.stringify(branch)}`);
    }
    catch (error) {
        if (error instanceof GitError)
            return false;
        throw error;
    }
    await withRepositoryLock(parent.gitDir, () => git.run(parent.path, [
        'update-ref',
        '-m',
        'worktree-sandbox: fetched from origin',
        '--',
        `refs/remotes/origin/${branch}`,
        commit,
    ]));
    return true;
}
/** A branch's two refs: the local one, and origin's. */
function branchRefNames(branch) {
    return [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`];
}
/**
 * Gathers the facts from the parent repository (fetching the branch from origin when it is not known
 * yet). Reading refs needs no lock: git replaces each one in one step, and the sandbox is made from what
 * is read again under the lock (create.ts). The parent is the host's alone: no container can write its
 * refs. `head`, when given, is the parent's HEAD commit as just read: the start when `base` is empty.
 */
async function resolveBranch(git, parent, branch, base) {
    const parentPath = parent.path;
    const [local, remote] = branchRefNames(branch);
    // One git process for both branch refs; the base only costs one more when it is named.
    const [baseCommit, refs] = await Promise.all([
        !base && parent.head ? parent.head : git.resolveCommit(parentPath, base || 'HEAD'),
        branch ? git.readRefs(parentPath, [local, remote]) : new Map(),
    ]);
    if (!baseCommit)
        throw new Error(`Invalid input 'base': ${JSON.stringify(base)} names no commit in ${parentPath}.`);
    if (!branch)
        return planBranch({ branch, localExists: false, remoteExists: false, baseCommit });
    const localExists = refs.has(local);
    let remoteExists = false;
    if (!localExists) {
        remoteExists = refs.has(remote);
        // actions/checkout fetches one ref only: ask origin whether the branch exists before creating it anew.
        if (!remoteExists && (await git.remoteUrl(parentPath, 'origin')))
            remoteExists = await fetchOriginBranch(git, parent, branch);
    }
    return planBranch({ branch, localExists, remoteExists, baseCommit });
}

// EXTERNAL MODULE: ./src/engine/start-failure.ts
var start_failure = __nccwpck_require__(8557);
;// CONCATENATED MODULE: ./src/sandbox/make-repository.ts
// Making a sandbox's repository: one script, run on the host in a folder made just for it (no container
// has written there yet), or in a helper container inside a fresh volume. The new repository borrows the
// parent's object store (`objects/info/alternates`): nothing is copied.
// ADR 0001 (docs/adr/0001-sandbox-is-a-repository-of-its-own.md).










/**
 * Makes the repository: $1 work tree, $2 home, $3 start commit, $4 branch (empty: detached), $5 upstream
 * commit (may be empty), $6 origin URL (may be empty), $7 the object store to borrow. Positional
 * arguments only: nothing is spliced into the script. The checkout is git's own, sequential: its parallel
 * workers (`checkout.workers=0`) did not pay here and took twice the CPU (ADR 0011).
 */
const INIT_SCRIPT = `set -eu
wt="$1"; home="$2"; start="$3"; branch="$4"; upstream="$5"; origin="$6"; store="$7"
mkdir -p -- "$home"
git init --quiet --template= -- "$wt"
printf '%s\\n' "$store" > "$wt/.git/objects/info/alternates"
cd -- "$wt"
git config gc.auto 0
if [ -n "$origin" ]; then
  git config remote.origin.url "$origin"
  git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'
fi
if [ -n "$branch" ]; then
  git update-ref "refs/heads/$branch" "$start"
  git symbolic-ref HEAD "refs/heads/$branch"
  if [ -n "$upstream" ]; then
    git update-ref "refs/remotes/origin/$branch" "$upstream"
    git config "branch.$branch.remote" origin
    git config "branch.$branch.merge" "refs/heads/$branch"
  fi
else
  git update-ref --no-deref HEAD "$start"
fi
git reset --hard --quiet
`;
function initArgs(sandbox, seed) {
    return [
        sandbox.worktreePath,
        sandbox.homePath,
        seed.start,
        sandbox.branch,
        seed.upstream ?? '',
        seed.originUrl,
        sandbox.parent.objectStores[0],
    ];
}
/** The project folder and its note of the parent, then the sandbox's new, empty folder (repository lock held). */
async function makeDiskFolder(sandbox, recover) {
    const projectDir = external_node_path_.dirname(sandbox.hostPath);
    await promises_.mkdir(projectDir, { recursive: true });
    await writeParentNote(projectDir, sandbox.parent);
    if (recover)
        await removeDiskFolders(sandbox);
    // The folder is new (mkdir fails if anything appeared meanwhile, and then nothing is removed): no
    // container has written in it yet. What is made from here on is ours to remove if it fails.
    await promises_.mkdir(sandbox.hostPath);
}
/** The init script on the host, in the folder makeDiskFolder made; the caller removes it if this throws. */
async function createOnDisk(git, sandbox, seed) {
    const projectDir = external_node_path_.dirname(sandbox.hostPath);
    const limitMs = (0,time_limits/* timeLimitMs */.PI)('create');
    const result = await (0,proc/* runStreaming */.SL)('sh', ['-c', INIT_SCRIPT, 'init-sandbox', ...initArgs(sandbox, seed)], {
        cwd: projectDir,
        // The runner's own git configuration stays out too: the checkout applies no filter it defines (a
        // start commit may hold a sandbox's work, .gitattributes and all).
        env: git.scriptEnv({ GIT_CONFIG_GLOBAL: '/dev/null', XDG_CONFIG_HOME: '/nonexistent' }),
        timeLimitMs: limitMs,
    });
    if (result.timedOut)
        throw new time_limits/* TimeLimitError */.$q('create', whereIs(sandbox), limitMs, NOT_CREATED, true);
    if (result.exitCode === 0)
        return;
    throw new Error(await creationFailure(projectDir, result.stderrTail.join('\n')));
}
const NOT_CREATED = 'the sandbox was not created, and what was made of it is removed';
/** As root only to hand the fresh volume to the runner's user; then the same script as that user. */
const VOLUME_SCRIPT = `set -eu
uid="$1"; gid="$2"; recover="$3"; init="$4"; wt="$5"; shift 5
as_user() {
  if [ "$uid" = 0 ]; then "$@"
  elif command -v setpriv >/dev/null 2>&1; then setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"
  else chroot --userspec="$uid:$gid" / "$@"; fi
}
chown "$uid:$gid" /sandbox
if [ -e "$wt" ] || [ -L "$wt" ]; then
  if [ "$recover" = 1 ] || [ -z "$(ls -A "$wt")" ]; then
    rm -rf -- "$wt"
  else
    echo "worktree-sandbox: $wt holds files but the parent repository has no record of it; refusing to overwrite them" >&2
    exit 3
  fi
fi
as_user sh -c "$init" init-sandbox "$wt" "$@"
`;
async function createInVolume(engine, sandbox, seed, image, recover, 
/** Whether the volume is there (create.ts asked the engine, under this run's sandbox lock). */
present) {
    if (!present)
        await engine.createVolume(sandbox.volume, (0,engine_labels/* volumeLabels */.kV)({ ...sandbox, parentPath: sandbox.parent.path }));
    const id = (0,container_args/* currentIdentity */._c)();
    const [wt, ...rest] = initArgs(sandbox, seed);
    const result = await engine.runHelper(sandboxHelper(sandbox, image, {
        name: 'create-sandbox',
        text: VOLUME_SCRIPT,
        args: [String(id.uid), String(id.gid), recover ? '1' : '0', INIT_SCRIPT, wt, ...rest],
    }, { user: '0:0', capAdd: ['CHOWN', 'SETUID', 'SETGID', 'SYS_CHROOT', 'DAC_OVERRIDE', 'FOWNER'] }), { work: 'create', where: `${sandbox.name} (${whereIs(sandbox)})`, consequence: NOT_CREATED });
    if (result.exitCode !== 0) {
        const said = (result.stderrTail.length ? result.stderrTail : result.outputTail).join('\n').trim();
        // A helper that never started (an image without `sh`, ...): the engine's words, then what to do.
        throw new Error(`Could not create the sandbox in volume ${sandbox.volume}: ${said || `exit ${result.exitCode}`}${(0,start_failure/* startFailureHint */.E)(said)}`);
    }
}
/** git only says it could not write a file: say where, and how much room is left once it cleaned up. */
async function creationFailure(dir, message) {
    if (!/unable to write|no space left|write error|short write|could not write/i.test(message))
        return `Could not create the sandbox: ${message.trim()}`;
    const stats = await promises_.statfs(dir).catch(() => undefined);
    const free = stats ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free now` : '';
    return `Writing the sandbox under ${dir} failed (No space left on device?${free}): the sandbox was not created.`;
}

;// CONCATENATED MODULE: ./src/sandbox/ref-files.ts
// A repository's refs read from its files as data, the way git's files backend keeps them: a loose ref
// file (`<git folder>/refs/...`) over its line in `packed-refs`. Bounded, and never through a symbolic
// link: the reaper reads sandboxes' git folders with these (a container wrote them), and the host reads
// a parent's own refs with them where the answer is sure, instead of starting git. Anything unexpected
// (another ref storage, a symbolic ref, a malformed `packed-refs`) leaves the answer to git.



/** A ref name as git writes them (no spaces, no control characters, no `..` component). */
const REF_NAME = /^refs\/(?:[^\s\0\\/:?*[~^]+\/)*[^\s\0\\/:?*[~^]+$/;
const LOOSE_REF_MAX = 1024;
/** `packed-refs` larger than this is not read to look up a few refs: git answers. */
const PACKED_LOOKUP_MAX = 1024 * 1024;
/** HEAD's content: `ref: refs/...` or a commit name. */
function parseHead(text) {
    const line = text.replace(/\n$/, '');
    if (OID.test(line))
        return { oid: line };
    const ref = /^ref: (.+)$/.exec(line)?.[1];
    if (ref && REF_NAME.test(ref) && !ref.split('/').includes('..'))
        return { ref };
    return { error: `HEAD is neither a commit nor a ref: ${JSON.stringify(line.slice(0, 80))}` };
}
/** A loose ref file: an object name, or a symbolic ref (`ref: ...`), which names no object itself. */
function parseLooseRef(text) {
    const head = parseHead(text);
    if ('oid' in head)
        return head;
    if ('ref' in head)
        return { symbolic: head.ref };
    return { error: 'a ref file holds neither an object name nor a ref' };
}
/**
 * `packed-refs`: `<oid> <name>` lines, `^<oid>` for a peeled tag (the ref just above it: `peeledOf`),
 * `#` comments.
 */
function parsePackedRefs(text) {
    const refs = new Map();
    const peeled = [];
    const peeledOf = new Map();
    let last;
    for (const line of text.split('\n')) {
        if (!line || line.startsWith('#'))
            continue;
        if (line.startsWith('^')) {
            if (!OID.test(line.slice(1)))
                return { error: 'packed-refs has a malformed line' };
            peeled.push(line.slice(1));
            if (last !== undefined)
                peeledOf.set(last, line.slice(1));
            continue;
        }
        const space = line.indexOf(' ');
        const oid = line.slice(0, space);
        const name = line.slice(space + 1);
        if (space < 0 || !OID.test(oid) || !REF_NAME.test(name))
            return { error: 'packed-refs has a malformed line' };
        refs.set(name, oid);
        last = name;
    }
    return { refs, peeled, peeledOf };
}
/** A regular file, never through a symbolic link, at most `max` bytes (more: an error). */
function readBounded(file, max) {
    let fd;
    try {
        fd = external_node_fs_.openSync(file, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NOFOLLOW | external_node_fs_.constants.O_NONBLOCK);
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT')
            return { absent: true };
        if (code === 'ELOOP')
            return { error: `${external_node_path_.basename(file)} is a symbolic link` };
        return { error: `cannot read ${external_node_path_.basename(file)} (${code})` };
    }
    try {
        const st = external_node_fs_.fstatSync(fd);
        if (!st.isFile())
            return { error: `${external_node_path_.basename(file)} is not a regular file` };
        if (st.size > max)
            return { error: `${external_node_path_.basename(file)} is larger than ${max} bytes` };
        const data = Buffer.alloc(st.size);
        let read = 0;
        while (read < st.size) {
            const n = external_node_fs_.readSync(fd, data, read, st.size - read, read);
            if (n === 0)
                break;
            read += n;
        }
        return { data: data.subarray(0, read) };
    }
    finally {
        external_node_fs_.closeSync(fd);
    }
}
/**
 * Each of `refs` looked up: a loose ref file over its line in `packed-refs` (read only when some ref has
 * no loose file, and only within PACKED_LOOKUP_MAX). A ref is surely absent only where the repository
 * keeps its refs in these files (no reftable, no `commondir` naming another folder's refs).
 */
function lookUpRefs(gitDir, refs) {
    const found = new Map();
    const other = ['reftable', 'commondir'].find((name) => external_node_fs_.existsSync(external_node_path_.join(gitDir, name)));
    const unpacked = [];
    for (const ref of refs) {
        if (!REF_NAME.test(ref) || ref.split('/').includes('..')) {
            found.set(ref, { unsure: 'not a ref name' });
            continue;
        }
        const file = readBounded(external_node_path_.join(gitDir, ref), LOOSE_REF_MAX);
        if ('absent' in file)
            unpacked.push(ref);
        else if ('error' in file)
            found.set(ref, { unsure: file.error });
        else {
            const loose = parseLooseRef(file.data.toString('utf8'));
            found.set(ref, 'oid' in loose ? { oid: loose.oid } : { unsure: 'not an object name' });
        }
    }
    if (!unpacked.length)
        return found;
    const packedFile = readBounded(external_node_path_.join(gitDir, 'packed-refs'), PACKED_LOOKUP_MAX);
    const packed = 'data' in packedFile ? parsePackedRefs(packedFile.data.toString('utf8')) : undefined;
    for (const ref of unpacked) {
        const oid = packed && !('error' in packed) ? packed.refs.get(ref) : undefined;
        if (oid)
            found.set(ref, { oid });
        else if (other)
            found.set(ref, { unsure: `the repository has a ${other}` });
        else if ('absent' in packedFile || (packed && !('error' in packed)))
            found.set(ref, { absent: true });
        else
            found.set(ref, { unsure: 'packed-refs cannot be read' });
    }
    return found;
}
/**
 * The objects some of a repository's refs name, read as data: only the answers that are sure. A ref found
 * neither way, or found as anything but an object name (a symbolic ref, a folder, a link, a `packed-refs`
 * with a malformed line or past PACKED_LOOKUP_MAX, another ref storage) is left out, for git to answer.
 */
function readRefTips(gitDir, refs) {
    const tips = new Map();
    for (const [ref, found] of lookUpRefs(gitDir, refs))
        if ('oid' in found)
            tips.set(ref, found.oid);
    return tips;
}
/**
 * The objects `refs` name, each ref that exists in the map; undefined unless every answer is sure (the
 * absence of a ref included): then git answers. The object's type is not known here.
 */
function readRefsAsData(gitDir, refs) {
    const tips = new Map();
    try {
        for (const [ref, found] of lookUpRefs(gitDir, refs)) {
            if ('unsure' in found)
                return undefined;
            if ('oid' in found)
                tips.set(ref, found.oid);
        }
    }
    catch {
        return undefined; // a read that failed midway (EIO...): git answers
    }
    return tips;
}

;// CONCATENATED MODULE: ./src/sandbox/create.ts
// Creating a sandbox, or reusing it exactly as it is (uncommitted files and all). A new sandbox is a
// repository of its own whose object store borrows the parent's, made by make-repository.ts. The parent's
// records are written last: a sandbox whose `creating` record is still there was half-made by a killed
// run, and is made again.
// ADR 0001 (docs/adr/0001-sandbox-is-a-repository-of-its-own.md).







class SandboxConflictError extends Error {
}
async function prepareSandbox(git, engine, sandbox, plan, 
/**
 * The image helpers run; `ready` settles once the engine has it and is known to see the folders, and is
 * called only before something is written (a reused sandbox does not wait for it).
 */
image, log) {
    const { name: imageName, ready: checksDone } = typeof image === 'string' ? { name: image, ready: () => Promise.resolve() } : image;
    const { parent } = sandbox;
    const refs = sandboxRefs(sandbox);
    // A sandbox that is there is taken without the repository lock: only the holder of the sandbox's lock
    // (this run; the reaper and `rm` take it too) writes its records. Anything else is decided again, and
    // recorded, under the repository lock.
    const found = await lookUp(git, engine, sandbox, refs);
    if (found.reused)
        return found.reused;
    // Nothing is written before the image is known to be there and the engine to see the folders; a pull
    // is never waited for under the lock.
    await checksDone();
    // The repository lock is held for the parent's bookkeeping only (records, the project folder), never
    // while a sandbox is written: a container or a checkout that hangs must not stop other sandboxes of the
    // same parent. While the sandbox is written, this run's sandbox lock keeps every other run, the reaper
    // and `rm` away from it, and its `creating` record says it is half-made if this run dies.
    const begun = await withRepositoryLock(parent.gitDir, () => beginCreation(git, engine, sandbox, plan, log, found.present));
    if ('reused' in begun)
        return begun.reused;
    const { seed } = begun;
    try {
        if (sandbox.isolation === 'disk')
            await createOnDisk(git, sandbox, seed);
        else
            await createInVolume(engine, sandbox, seed, imageName, begun.recover, begun.present);
    }
    catch (error) {
        // What was made here goes; a volume that was there before is kept.
        if (sandbox.isolation === 'disk')
            await removeDiskFolders(sandbox).catch(() => undefined);
        else if (!begun.volumeWasThere)
            await engine.removeVolume(sandbox.volume).catch(() => undefined);
        await withRepositoryLock(parent.gitDir, () => dropRecords(git, parent, refs));
        throw error;
    }
    const records = [`update ${refs.head} ${seed.start}`, `delete ${refs.creating}`];
    if (seed.upstream)
        records.push(`update ${refs.offered} ${seed.upstream}`);
    await withRepositoryLock(parent.gitDir, () => git.run(parent.path, ['update-ref', '--stdin'], { input: Buffer.from(records.join('\n') + '\n') }));
    return { ...sandbox, reused: false, startSha: seed.start };
}
/**
 * Under the repository lock: decides again (the records may have changed), drops the records of a
 * sandbox that is gone, refuses a folder nobody recorded, reads the seed, writes the `creating` record,
 * and for a disk sandbox makes its (empty) folder, so that the project folder is never removed from under
 * it by the removal of the project's last other sandbox (which happens under this lock too).
 */
async function beginCreation(git, engine, sandbox, plan, log, 
/** Whether the volume is there, as the engine said before the repository lock. */
volumePresent) {
    const { parent } = sandbox;
    const refs = sandboxRefs(sandbox);
    const { head, creating, present, reused } = await lookUp(git, engine, sandbox, refs, volumePresent);
    if (reused)
        return { reused };
    if (head && !creating) {
        log.info(`Sandbox ${sandbox.name} (${whereIs(sandbox)}) is gone: its records in the parent are dropped.`);
        await dropRecords(git, parent, refs);
    }
    if (creating)
        log.info(`Recovering ${whereIs(sandbox)}: a run was killed while creating it.`);
    // A folder nobody recorded is refused before anything is written: it may be someone's work.
    else if (sandbox.isolation === 'disk')
        await refuseForeignFolder(sandbox);
    const seed = await readSeed(git, parent, plan);
    await git.run(parent.path, [
        'update-ref',
        '-m',
        'worktree-sandbox: creating',
        '--',
        refs.creating,
        seed.start,
    ]);
    try {
        if (sandbox.isolation === 'disk')
            await makeDiskFolder(sandbox, creating);
    }
    catch (error) {
        await dropRecords(git, parent, refs);
        throw error;
    }
    return { seed, recover: creating, present, volumeWasThere: present && !creating };
}
/**
 * The sandbox's records, whether it is there, and so whether it is reused as it is. The records are read
 * again under the repository lock; the engine's word on the volume is asked once (`volumePresent`): only a
 * holder of the sandbox's lock (this run; the post step, the reaper and `rm` take it too) removes the
 * volume, so it cannot change in between.
 */
async function lookUp(git, engine, sandbox, refs, volumePresent) {
    const upstreamRef = sandbox.branch ? `refs/remotes/origin/${sandbox.branch}` : '';
    const [recorded, present] = await Promise.all([
        readRecords(git, sandbox.parent, refs, upstreamRef),
        sandbox.isolation === 'container'
            ? (volumePresent ?? engine.volumeExists(sandbox.volume))
            : pathExists(sandbox.hostPath),
    ]);
    const head = recorded.get(refs.head);
    const creating = recorded.has(refs.creating);
    if (!head || creating || !present)
        return { head, creating, present };
    const upstream = recorded.get(upstreamRef);
    const upstreamNew = upstream && upstream !== recorded.get(refs.offered) ? upstream : undefined;
    return { head, creating, present, reused: { ...sandbox, reused: true, startSha: head, upstreamNew } };
}
/**
 * The sandbox's records and what origin has of the branch (start-up latency counts). The records are the
 * action's own refs, each a commit it wrote: read from the parent's files as data where that answer is
 * sure (ref-files.ts), as long as origin's branch is absent or the one offered last, which is then not
 * used. Otherwise in one git process, which also checks that each names a commit.
 */
async function readRecords(git, parent, refs, upstreamRef) {
    const names = [refs.head, refs.creating, refs.offered, ...(upstreamRef ? [upstreamRef] : [])];
    const read = readRefsAsData(parent.gitDir, names);
    const upstream = upstreamRef ? read?.get(upstreamRef) : undefined;
    if (read && (upstream === undefined || upstream === read.get(refs.offered)))
        return read;
    return git.readRefs(parent.path, names);
}
async function readSeed(git, parent, plan) {
    const rev = plan.source === 'local'
        ? `refs/heads/${plan.branch}`
        : plan.source === 'remote'
            ? `refs/remotes/origin/${plan.branch}`
            : plan.startPoint;
    const [start, upstream, url] = await Promise.all([
        git.resolveCommit(parent.path, rev),
        plan.branch ? git.resolveCommit(parent.path, `refs/remotes/origin/${plan.branch}`) : undefined,
        git.remoteUrl(parent.path, 'origin'),
    ]);
    if (!start)
        throw new Error(`${rev} names no commit in ${parent.path} any more: the sandbox was not created.`);
    return { start, upstream, originUrl: withoutCredentials(url ?? '') };
}
/** A URL's user and password never reach a sandbox's config. */
function withoutCredentials(url) {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url))
        return url;
    try {
        const parsed = new URL(url);
        parsed.username = '';
        parsed.password = '';
        return parsed.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
    }
    catch {
        return '';
    }
}
/** An empty folder where the sandbox goes is removed; one holding files nobody recorded is refused. */
async function refuseForeignFolder(sandbox) {
    if (!(await pathExists(sandbox.hostPath)))
        return;
    if ((await promises_.readdir(sandbox.hostPath)).length > 0)
        throw new SandboxConflictError(`${sandbox.hostPath} exists and holds files, but ${sandbox.parent.path} has no record of a sandbox there: it is not touched. Move it away or remove it, then run again.`);
    await promises_.rmdir(sandbox.hostPath);
}

;// CONCATENATED MODULE: ./src/sandbox/engine-view.ts
// What a run mounts from the action's side, for the engine-view checks (engine/host-paths.ts,
// engine/engine-probe.ts): every bind source layout.ts gives a container, named for a person, with what to
// change when the engine cannot see it; and how a run proves that the engine sees them.



const WORKSPACE_FIX = 'Check the repository out inside a folder the engine shares with the action (the workspace, $GITHUB_WORKSPACE)';
/** Every folder and file a run binds into a container: the parent, its object stores, the disk root, extra files. */
function mountedPaths(parent, isolation, worktreeRoot, readOnlyFiles = []) {
    const paths = [
        { path: parent.path, what: 'parent repository', fix: WORKSPACE_FIX },
        ...parent.objectStores.map((dir) => ({ path: dir, what: 'object store', fix: WORKSPACE_FIX })),
    ];
    if (isolation === 'disk')
        paths.push({ path: worktreeRoot, what: 'worktree-root', fix: host_paths/* SHARED_ROOT_FIX */.jX });
    for (const file of readOnlyFiles)
        paths.push({
            path: file,
            what: 'file',
            fix: 'Keep RUNNER_TEMP inside a folder the engine shares with the action',
        });
    return paths;
}
/**
 * The folders the probe writes its file in: the parent's git folder (the parent and its object store are
 * mounted from beside it) and, for a disk sandbox, the root it is made under.
 */
function probedFolders(parent, isolation, worktreeRoot) {
    const folders = [{ path: parent.gitDir, what: 'parent repository', fix: WORKSPACE_FIX }];
    if (isolation === 'disk')
        folders.push({ path: external_node_path_.resolve(worktreeRoot), what: 'worktree-root', fix: host_paths/* SHARED_ROOT_FIX */.jX });
    return folders;
}
/**
 * The folders the probe writes its file in when a sandbox that is there is proved by its command's
 * container: the parent's git folder and, for a disk sandbox, its project folder (which holds the
 * sandbox and its home; the reaper takes what starts with a dot there for the action's own).
 */
function reusedProbeFolders(sandbox) {
    const folders = [
        { path: sandbox.parent.gitDir, what: 'parent repository', fix: WORKSPACE_FIX },
    ];
    if (sandbox.isolation === 'disk')
        folders.push({ path: external_node_path_.dirname(sandbox.hostPath), what: 'sandbox folder', fix: host_paths/* SHARED_ROOT_FIX */.jX });
    return folders;
}
/**
 * How a run proves that the engine sees its folders where the action sees them (engine/engine-probe.ts),
 * one of two ways. Before a sandbox is made, or a helper runs on it: a helper the engine creates (never
 * starts). For a sandbox taken as it is, straight to its command: the command's own
 * container binds the probe's files, and the engine refuses to create it when it does not find them, so
 * nothing in it starts with an empty or a wrong folder; that costs no engine call of its own.
 */
class EngineViewProof {
    engine;
    image;
    folders;
    imageReady;
    onHelper;
    helper;
    proved;
    planted;
    removed;
    constructor(engine, image, folders, 
    /** The image check (it pulls), asked by the helper's proof only when the engine lacks the image. */
    imageReady, 
    /**
     * Told the helper's name before the engine creates it, and undefined once `remove` removed it: a run
     * saves it for its post step, which removes a helper that a killed main step (or an engine that did
     * not answer) left.
     */
    onHelper) {
        this.engine = engine;
        this.image = image;
        this.folders = folders;
        this.imageReady = imageReady;
        this.onHelper = onHelper;
    }
    /**
     * Proves it with a helper, started now unless it already was; rejects naming what the engine does not
     * see. Once it resolved, the engine has the image too (the helper is created with `--pull never`).
     */
    byHelper() {
        if (!this.proved) {
            this.helper = probeEngineView(this.engine, this.image, this.folders, this.imageReady, undefined, this.onHelper);
            this.proved = this.helper.then(() => undefined);
            // Awaited by whoever needs it; a rejection before then is not an unhandled one (which would end
            // the process), and the await still throws it.
            for (const promise of [this.helper, this.proved])
                promise.catch(() => undefined);
        }
        return this.proved;
    }
    /** Whether a helper proves it (or is proving it). */
    get helperStarted() {
        return this.helper !== undefined;
    }
    /** The probe's files in the folders of `sandbox`, for its command's container to bind. */
    forCommand(sandbox) {
        this.planted ??= plantProbe(this.engine, reusedProbeFolders(sandbox));
        return this.planted;
    }
    /** What the proof made that is still there (the helper, files) goes; once, whoever asks again. */
    remove() {
        this.removed ??= this.removeNow();
        return this.removed;
    }
    async removeNow() {
        await Promise.all([
            // A helper the engine did not remove (or that a failed probe could not) stays named for the post
            // step, which tries again.
            this.helper
                ?.then(async (p) => {
                if (await p.remove())
                    this.onHelper?.(undefined);
            })
                .catch(() => undefined),
            this.planted?.then((p) => p.remove()).catch(() => undefined),
        ]);
    }
}

;// CONCATENATED MODULE: ./src/sandbox/repository.ts
// The parent repository: the main work tree whose object store and metadata every sandbox shares.


async function findParentRepository(git, given) {
    const start = await realDirectory(given);
    // One git call for all four answers (start-up latency counts): outside a work tree it prints `false`
    // or fails, and --show-toplevel fails there in any case; in a repository without commits the first
    // three lines are printed and HEAD fails. `--` keeps a file named like the revision out of it.
    const found = await git.exec(start, [
        'rev-parse',
        '--is-inside-work-tree',
        '--path-format=absolute',
        '--git-common-dir',
        '--show-toplevel',
        'HEAD^{commit}',
        '--',
    ]);
    const [inside, commonDir, toplevel, ...rest] = found.stdout.trim().split('\n');
    if (inside !== 'true' || !commonDir || !toplevel) {
        throw new Error(`repository-path ${given} is not a git work tree (git says: ${found.stderr.trim() || found.stdout.trim()}).`);
    }
    const gitDir = await promises_.realpath(commonDir);
    if (external_node_path_.basename(gitDir) !== '.git') {
        throw new Error(`repository-path ${given} uses a git directory at ${gitDir}: only a normal clone (a work tree with its .git folder) can be a sandbox parent.`);
    }
    const head = rest.find((line) => /^[0-9a-f]{40,64}$/.test(line));
    if (found.exitCode !== 0 || !head) {
        throw new Error(`repository-path ${given} has no commits yet: a sandbox needs at least one commit to start from.`);
    }
    const parentPath = external_node_path_.dirname(gitDir);
    const top = await promises_.realpath(toplevel);
    return {
        path: parentPath,
        gitDir,
        head,
        objectStores: await objectStores(external_node_path_.join(gitDir, 'objects')),
        resolvedFrom: top !== parentPath ? top : undefined,
    };
}
/** A store and the stores it borrows from (its `info/alternates`, followed as git does, five deep). */
async function objectStores(store, depth = 0) {
    const stores = [store];
    if (depth >= 5)
        return stores;
    const text = await promises_.readFile(external_node_path_.join(store, 'info', 'alternates'), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
        const entry = line.trim();
        if (!entry || entry.startsWith('#'))
            continue;
        const real = await promises_.realpath(external_node_path_.resolve(store, entry)).catch(() => undefined);
        if (!real)
            continue;
        for (const found of await objectStores(real, depth + 1))
            if (!stores.includes(found))
                stores.push(found);
    }
    return stores;
}
async function realDirectory(given) {
    try {
        const real = await promises_.realpath(given);
        if (!(await promises_.stat(real)).isDirectory())
            throw new Error('not a directory');
        return real;
    }
    catch {
        throw new Error(`repository-path ${given} does not exist or is not a directory.`);
    }
}

;// CONCATENATED MODULE: ./src/sandbox/reuse.ts



/**
 * $1 work tree, $2 branch, $3 commit, $4 token for the guard's lines. What `update-ref` opens on the way
 * (the ref, its lock, its log, and packed-refs, read to see that the name is free) is cleared of traps
 * first (git-traps.ts).
 */
const OFFER_SCRIPT = `set -eu
${TRAP_GUARD}
cd -- "$1"
ref="refs/remotes/origin/$2"
clear_git_traps "$4" "$ref" "$ref.lock" "logs/$ref" packed-refs
git update-ref "$ref" "$3"
`;
async function offerUpstream(git, engine, sandbox, image) {
    const upstream = sandbox.upstreamNew;
    if (!sandbox.reused || !sandbox.branch || !upstream)
        return { cleared: [] };
    const { parent } = sandbox;
    const refs = sandboxRefs(sandbox);
    const traps = new ClearedTraps('offer');
    // A FIFO where the helper's git writes is removed before it starts; one where git only reads (HEAD,
    // config) would still make it hang: the helper runs under its time limit, and running out fails the
    // run with a TimeLimitError naming the sandbox.
    const result = await engine.runHelper(sandboxHelper(sandbox, image, {
        name: 'offer',
        text: OFFER_SCRIPT,
        args: [sandbox.worktreePath, sandbox.branch, upstream, traps.token],
    }), {
        work: 'offer',
        where: `${sandbox.name} (${whereIs(sandbox)})`,
        consequence: `origin/${sandbox.branch} was not offered inside, and the sandbox is left as it is`,
    }, { onLine: (line, stream) => void (stream === 'stderr' && traps.take(line)) });
    // A failure is the sandbox's own business (its repository may be broken).
    if (result.exitCode !== 0)
        return { cleared: traps.list };
    await git.run(parent.path, ['update-ref', '-m', 'worktree-sandbox: offered', '--', refs.offered, upstream]);
    return { offered: upstream, cleared: traps.list };
}

;// CONCATENATED MODULE: ./src/run/reply.ts
// The command's reply: a file it may write (SANDBOX_REPLY_FILE), outside its sandbox so that it is never
// committed, and read back by the host as data once the container is gone. The folder is the run's own,
// under RUNNER_TEMP, bind-mounted read-write at a fixed path; the container can plant anything there (a
// link to the runner's files, a FIFO, a folder, a sparse file of terabytes), so the host opens the file
// without following links and without blocking, reads on only when the open descriptor is a regular file,
// and reads at most REPLY_MAX_BYTES of it. Anything else is no reply and a warning, never a hang.






/** The most bytes of a reply that the host reads; a longer reply is cut, and the cut is said. */
const reply_REPLY_MAX_BYTES = 64 * 1024;
/** Where the command finds its reply folder, whatever the isolation. */
const REPLY_CONTAINER_DIR = '/run/worktree-sandbox/reply';
const REPLY_FILE_NAME = 'reply.md';
/**
 * A fresh folder for the reply, private to the runner's user (the command runs as that user, or is mapped
 * to it: engine/mode.ts), under `tempRoot/worktree-sandbox`.
 */
async function makeReplyFolder(tempRoot) {
    const base = external_node_path_.join(tempRoot, 'worktree-sandbox');
    await promises_.mkdir(base, { recursive: true, mode: 0o755 });
    const hostDir = external_node_path_.join(base, `reply-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`);
    await promises_.mkdir(hostDir, { mode: 0o700 });
    return {
        hostDir,
        mount: { type: 'bind', source: hostDir, target: REPLY_CONTAINER_DIR },
        env: { SANDBOX_REPLY_FILE: `${REPLY_CONTAINER_DIR}/${REPLY_FILE_NAME}` },
    };
}
/**
 * The reply folder for a command container, or why there is none: the engine must see the folder where
 * the action made it (in a job container, RUNNER_TEMP is under the job's shared work folder).
 */
async function offerReplyFolder(bindSource, tempRoot) {
    let folder;
    try {
        folder = await makeReplyFolder(tempRoot);
        (await bindSource())(folder.hostDir);
        return folder;
    }
    catch (error) {
        if (folder)
            await removeReplyFolder(folder.hostDir);
        return { warning: `SANDBOX_REPLY_FILE was not offered: ${error.message}` };
    }
}
/** What a non-regular file is, for the warning. */
function kindOf(stat) {
    if (stat.isDirectory())
        return 'a folder';
    if (stat.isFIFO())
        return 'a FIFO';
    if (stat.isSocket())
        return 'a socket';
    return 'a device or other special file';
}
/** Reads the reply the command left in `hostDir` (call once its container is gone). Never throws. */
async function readReply(hostDir, maxBytes = reply_REPLY_MAX_BYTES) {
    const file = external_node_path_.join(hostDir, REPLY_FILE_NAME);
    let handle;
    try {
        // O_NOFOLLOW: a link there is refused (ELOOP), not followed to the runner's files; O_NONBLOCK: a
        // FIFO with no writer opens at once instead of waiting for one.
        handle = await promises_.open(file, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NOFOLLOW | external_node_fs_.constants.O_NONBLOCK | external_node_fs_.constants.O_NOCTTY);
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT')
            return {};
        if (code === 'ELOOP')
            return { warning: 'The reply file is a symbolic link: not followed, no reply.' };
        return {
            warning: `The reply file could not be opened (${sandboxText(String(code ?? error))}): no reply.`,
        };
    }
    try {
        const stat = await handle.stat();
        if (!stat.isFile())
            return { warning: `The reply file is ${kindOf(stat)}, not a plain file: not read, no reply.` };
        const buffer = Buffer.alloc(maxBytes + 1);
        let filled = 0;
        while (filled < buffer.length) {
            const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
            if (bytesRead === 0)
                break;
            filled += bytesRead;
        }
        const cut = filled > maxBytes;
        return {
            reply: { text: decode(buffer.subarray(0, Math.min(filled, maxBytes)), cut), bytes: stat.size, cut },
        };
    }
    catch (error) {
        return {
            warning: `The reply file could not be read (${sandboxText(error.message)}): no reply.`,
        };
    }
    finally {
        await handle.close().catch(() => undefined);
    }
}
/** UTF-8, invalid bytes replaced; a character split by the cut dropped; NUL (refused by the API) replaced. */
function decode(bytes, cut) {
    // Streaming: a sequence the cut left incomplete is held back, not replaced.
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes, { stream: cut });
    return text.replace(/\0/g, '\uFFFD');
}
/**
 * Removes the reply folder, whatever the command left in it: the container may have taken the runner's
 * permissions away from the folder or from folders it made there. Returns an error message, or undefined.
 */
async function removeReplyFolder(hostDir) {
    try {
        await promises_.rm(hostDir, { recursive: true, force: true });
        return undefined;
    }
    catch {
        // Folders made unreadable: made readable again (chmod never follows a link), then removed.
        try {
            await makeWritable(hostDir, 0);
            await promises_.rm(hostDir, { recursive: true, force: true });
            return undefined;
        }
        catch (error) {
            return `The reply folder ${hostDir} could not be removed: ${sandboxText(error.message)}`;
        }
    }
}
/** Bounds of the walk that gives folders back to the runner: deeper or further, RUNNER_TEMP's own clean-up. */
const MAX_DEPTH = 64;
const MAX_FOLDERS = 10_000;
async function makeWritable(dir, depth, budget = { folders: MAX_FOLDERS }) {
    if (depth > MAX_DEPTH || budget.folders-- <= 0)
        return;
    await promises_.chmod(dir, 0o700);
    for (const entry of await promises_.readdir(dir, { withFileTypes: true }))
        if (entry.isDirectory())
            await makeWritable(external_node_path_.join(dir, entry.name), depth + 1, budget);
}
/** The log's part: the reply through the escaping of sandbox text and fenced, the cut or the warning. */
function reportReply(ui, read) {
    if (read?.warning)
        ui.warning(read.warning);
    const reply = read?.reply;
    if (!reply || !reply.text.trim())
        return;
    ui.info(`The command's reply ($SANDBOX_REPLY_FILE, ${markdown_thousands(reply.bytes)} bytes):`);
    ui.fenced(logLines(reply.text));
    if (reply.cut)
        ui.warning(reply_cutSentence(reply));
}
/** What the log and the Markdown say of a reply read only in part. */
function reply_cutSentence(reply) {
    return `The reply was cut: its file had ${markdown_thousands(reply.bytes)} bytes, and only the first ${markdown_thousands(reply_REPLY_MAX_BYTES)} were read.`;
}

;// CONCATENATED MODULE: ./src/run/command.ts
// Runs the user's command in a container that sees its sandbox read-write and nothing else writable of
// the host (layout.ts `commandMounts`). Output is streamed line by line and never accumulated (a bounded
// tail is kept for reports); the runner's environment stays out but for the variables named in `env`;
// the command is stopped when the timeout passes; a container that never started is an error, not exit 0.
// ADR 0005, ADR 0006, ADR 0007 (docs/adr/).












const TIMEOUT_EXIT_CODE = 124;
const TAIL_LINES = 40;
const TAIL_LINE_CHARS = 1000;
function containerName(sandbox) {
    return `worktree-sandbox-${sandbox.slice(0, 60).replace(/[^A-Za-z0-9_.-]/g, '-')}-${(0,external_node_crypto_.randomBytes)(3).toString('hex')}`;
}
/** The action's own variables (nothing secret): who commits, where the sandbox and its home are. */
function actionEnv(sandbox, spec) {
    return {
        HOME: sandbox.homePath,
        GIT_AUTHOR_NAME: spec.author.name,
        GIT_AUTHOR_EMAIL: spec.author.email,
        GIT_COMMITTER_NAME: spec.committer.name,
        GIT_COMMITTER_EMAIL: spec.committer.email,
        SANDBOX_NAME: sandbox.name,
        SANDBOX_KIND: sandbox.kind,
        SANDBOX_BRANCH: sandbox.branch,
        SANDBOX_WORKTREE: sandbox.worktreePath,
        SANDBOX_PARENT: sandbox.parent.path,
        ...spec.reply?.env,
        ...spec.extraEnv,
    };
}
/**
 * The `env` input's values never appear on a command line and never change the engine CLI's own
 * environment: one-line values go through a file only the runner can read (removed afterwards); values
 * of several lines, which that file cannot hold, are handed to the CLI by name (`-e NAME`).
 */
async function userEnv(entries) {
    const inherit = {};
    const lines = [];
    for (const { name, value } of entries) {
        if (/[\r\n]/.test(value))
            inherit[name] = value;
        else
            lines.push(`${name}=${value}`);
    }
    if (lines.length === 0)
        return { inherit };
    const dir = await promises_.mkdtemp(external_node_path_.join(process.env.RUNNER_TEMP || external_node_os_.tmpdir(), 'worktree-sandbox-env-'));
    const file = external_node_path_.join(dir, 'env');
    await promises_.writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600, flag: 'wx' });
    return { file, dir, inherit };
}
function commandContainer(sandbox, spec, name, env) {
    const extra = (spec.readOnlyFiles ?? []).map((file) => ({
        type: 'bind',
        source: file,
        target: file,
        readonly: true,
    }));
    return {
        name,
        init: true,
        image: spec.image,
        user: (0,container_args/* userArg */.Q6)(),
        mounts: [
            ...(spec.viewProof?.mounts ?? []),
            ...commandMounts(sandbox, spec.worktreeRoot),
            ...extra,
            ...(spec.reply ? [spec.reply.mount] : []),
        ],
        labels: (0,engine_labels/* commandLabels */.nX)(sandbox),
        limits: spec.limits,
        workdir: sandbox.worktreePath,
        env: actionEnv(sandbox, spec),
        envFile: env.file,
        inheritEnv: Object.keys(env.inherit),
        entrypoint: 'sh',
        args: ['-c', spec.command],
    };
}
/**
 * The network of the command container `name`: the proxy and its sidecar (src/network/session.ts). Its
 * code is loaded on demand, a chunk of its own: the proxy library is no part of a run without one.
 */
async function startCommandNetwork(engine, policy, sandbox, name) {
    const { startNetwork } = await Promise.all(/* import() */[__nccwpck_require__.e(830), __nccwpck_require__.e(472), __nccwpck_require__.e(54)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6054));
    return startNetwork(engine, policy, { name, labels: (0,engine_labels/* commandLabels */.nX)(sandbox) });
}
async function runCommand(engine, sandbox, given, hooks = {}) {
    const name = given.containerName ?? containerName(sandbox.name);
    const env = await userEnv(given.env);
    const offered = await offerReplyFolder(() => engine.bindSource(), process.env.RUNNER_TEMP || external_node_os_.tmpdir());
    const reply = 'hostDir' in offered ? offered : undefined;
    const spec = { ...given, reply };
    hooks.onStart?.(name);
    let timedOut = false;
    const timer = spec.timeoutMinutes > 0
        ? setTimeout(() => {
            timedOut = true;
            void engine.killContainer(name);
        }, spec.timeoutMinutes * 60_000)
        : undefined;
    const started = Date.now();
    const note = containerNotePath(sandbox.parent.gitDir, sandbox.name);
    const network = spec.network;
    let outcome;
    try {
        await promises_.mkdir(external_node_path_.dirname(note), { recursive: true });
        await promises_.writeFile(note, `${name}\n`);
        let container = commandContainer(sandbox, spec, name, env);
        if (network) {
            const joined = {
                ...spec,
                extraEnv: { ...spec.extraEnv, ...network.env },
                readOnlyFiles: [...(spec.readOnlyFiles ?? []), ...network.readOnlyFiles],
            };
            container = { ...commandContainer(sandbox, joined, name, env), joinNetworkOf: network.joinNetworkOf };
        }
        await hooks.ready?.();
        const result = await engine.stream(await engine.runArgs(container), {
            inherit: env.inherit,
            backpressure: hooks.drained,
            outputFd: hooks.outputFd,
            onStderrChunk: hooks.onStderrChunk,
            onLine: hooks.onLine,
            stderrTailLines: TAIL_LINES,
        });
        const durationMs = Date.now() - started;
        // With the output written straight to the step's log, its last lines are the engine's log of the
        // container: asked beside its state when the tail is wanted (one wait), else only when the command did
        // not run, for what the engine said (each question is an engine CLI start; docs/benchmarks.md).
        const logged = hooks.outputFd !== undefined;
        const [asked, state] = await Promise.all([
            logged && hooks.tail ? engine.logTail(name, TAIL_LINES) : undefined,
            engine.containerState(name),
        ]);
        const ranBadly = !state || !state.started || !!state.error || state.exitCode === 127;
        const lines = !logged
            ? result.outputTail
            : (asked ?? (ranBadly ? await engine.logTail(name, TAIL_LINES) : []));
        const tail = lines.map((l) => (l.length > TAIL_LINE_CHARS ? `${l.slice(0, TAIL_LINE_CHARS)}…` : l));
        // What the engine said last: its stderr, or (output written straight to the step's log) its log of
        // the container; an engine error from before the container existed is in the step's log above.
        const engineSaid = [...result.stderrTail, ...(hooks.outputFd === undefined ? [] : lines)];
        const said = engineSaid.slice(-3).join(' ').trim();
        if (state)
            hooks.onCreated?.();
        if (!state) {
            // The engine refused a probe file: it does not see the sandbox's folders where the action does.
            const unseen = await spec.viewProof?.unseen(engineSaid.join('\n'));
            if (unseen)
                throw unseen;
            if ((await engine.containerExists(name)) === undefined)
                throw new engine_error/* EngineError */.NJ(`The ${engine.name} engine became unreachable while the command ran (exit ${result.exitCode}): the sandbox is kept as it is; run again once the engine is back.`);
            throw new engine_error/* EngineError */.NJ(`The container did not start (${engine.name} exit ${result.exitCode}): ${said}`);
        }
        if (!state.started || state.error)
            throw new engine_error/* EngineError */.NJ(`The container was created but did not start (${engine.name} exit ${result.exitCode}): ${state.error || said}${(0,start_failure/* startFailureHint */.E)(state.error || said)}`);
        // Docker's init (tini) started, but the command itself could not: it never ran.
        const initFailed = engineSaid.find((line) => /^\[FATAL tini \(\d+\)\] exec /.test(line));
        if (!timedOut && state.exitCode === 127 && engine.name === 'docker' && initFailed)
            throw new engine_error/* EngineError */.NJ(`The container started but its command did not (${engine.name} exit 127): ${initFailed}${(0,start_failure/* startFailureHint */.E)(initFailed)}`);
        const exitCode = timedOut ? TIMEOUT_EXIT_CODE : state.exitCode;
        outcome = { exitCode, timedOut, oomKilled: state.oomKilled, durationMs, tail };
        return outcome;
    }
    finally {
        if (timer)
            clearTimeout(timer);
        if (await engine.removeContainer(name))
            await promises_.rm(note, { force: true });
        // The proxy and its sidecar stop with the command, after its container is gone (Podman keeps a
        // container that another one still joins); what the proxy counted is complete only then.
        if (network) {
            const report = await network.stop();
            if (outcome)
                outcome.network = report;
        }
        if (env.dir)
            await promises_.rm(env.dir, { recursive: true, force: true });
        // Read once the container is gone (nothing writes the folder any more), then the folder goes.
        if (reply) {
            const read = outcome ? await readReply(reply.hostDir) : {};
            const left = await removeReplyFolder(reply.hostDir);
            if (outcome)
                outcome.reply = left ? { ...read, warning: [read.warning, left].filter(Boolean).join(' ') } : read;
        }
        else if (outcome && 'warning' in offered)
            outcome.reply = offered;
    }
}
/** Containers of the sandbox that a killed run left (its note says there may be some): removed. */
async function removeLeftContainers(engine, sandbox) {
    const note = containerNotePath(sandbox.parent.gitDir, sandbox.name);
    if (!(await pathExists(note)))
        return [];
    const removed = await engine.removeContainersLabelled((0,engine_labels/* commandLabels */.nX)(sandbox));
    await promises_.rm(note, { force: true });
    return removed;
}

;// CONCATENATED MODULE: ./src/run/raw-commit.ts
/** Header names shown as they are in a finding; any other header's name is sandbox text, not shown. */
const KNOWN_HEADERS = new Set(['tree', 'parent', 'encoding', 'gpgsig', 'gpgsig-sha256', 'mergetag']);
/** The place of a header named `name` (as the object spells it) in `commit`. */
function headerPlace(name, commit) {
    if (name === 'author' || name === 'committer')
        return { kind: name, commit };
    return { kind: 'header', name: KNOWN_HEADERS.has(name) ? name : undefined, commit };
}
/**
 * The lines of commit `commit`'s raw object: each header line (a continuation line, which starts with a
 * space, counts in the header it continues), then the message: its bytes read as UTF-8 with NULs taken
 * out (UTF-16 text then reads as its characters, as an added line's does), and, when an `encoding` header
 * names another encoding that the runtime can decode, the message decoded that way too (what `git log`
 * shows).
 */
function rawCommitLines(commit, body) {
    const out = [];
    const blank = body.indexOf('\n\n');
    const headEnd = blank < 0 ? body.length : blank;
    let place;
    let line = 0;
    let encoding;
    for (const text of body.subarray(0, headEnd).toString('utf8').split('\n')) {
        if (text.startsWith(' ') && place) {
            out.push({ place, line: ++line, text: text.slice(1) });
            continue;
        }
        const space = text.indexOf(' ');
        const name = space < 0 ? text : text.slice(0, space);
        if (name === 'encoding')
            encoding = text.slice(space + 1).trim();
        place = headerPlace(name, commit);
        line = 1;
        out.push({ place, line, text });
    }
    if (blank < 0)
        return out;
    const message = body.subarray(blank + 2);
    const messagePlace = { kind: 'message', commit };
    const stored = withoutNuls(message).toString('utf8').split('\n');
    stored.forEach((text, i) => out.push({ place: messagePlace, line: i + 1, text }));
    const decoded = decodeAs(encoding, message);
    if (decoded !== undefined)
        decoded.split('\n').forEach((text, i) => {
            if (text !== stored[i])
                out.push({ place: messagePlace, line: i + 1, text });
        });
    return out;
}
function withoutNuls(bytes) {
    return bytes.includes(0) ? Buffer.from(bytes.filter((b) => b !== 0)) : bytes;
}
/** The message decoded as its `encoding` header says, when that is not UTF-8 and the runtime knows it. */
function decodeAs(encoding, bytes) {
    if (!encoding || /^utf-?8$/i.test(encoding))
        return undefined;
    try {
        return new TextDecoder(encoding).decode(bytes);
    }
    catch {
        return undefined; // a name the runtime does not know: the bytes as stored were read above
    }
}
const ESCAPES = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
/**
 * A path as git's diff output prints it, back to the name git stores: `"…"` with C escapes (`\t`, `\"`,
 * `\\`, octal bytes) is unquoted and its bytes read as UTF-8; a path git did not quote is as it is.
 */
function unquotePath(printed) {
    if (!(printed.length >= 2 && printed.startsWith('"') && printed.endsWith('"')))
        return printed;
    const inner = printed.slice(1, -1);
    const bytes = [];
    for (let i = 0; i < inner.length; i++) {
        const c = inner[i];
        if (c !== '\\') {
            bytes.push(...Buffer.from(c, 'utf8'));
            continue;
        }
        const next = inner[i + 1] ?? '';
        const octal = /^[0-7]{3}/.exec(inner.slice(i + 1, i + 4));
        if (octal) {
            bytes.push(parseInt(octal[0], 8) & 0xff);
            i += 3;
        }
        else if (next in ESCAPES) {
            bytes.push(ESCAPES[next]);
            i += 1;
        }
        else
            bytes.push(92); // not an escape git writes: kept as it reads
    }
    return Buffer.from(bytes).toString('utf8');
}
/**
 * The path a `--raw` line of `git log` names (`:100644 100644 <old> <new> M\t<path>`), or undefined for
 * a line that is not one, or one whose path is deleted (its name is in the parent already).
 */
function rawDiffPath(line) {
    if (!line.startsWith(':'))
        return undefined;
    const tab = line.indexOf('\t');
    if (tab < 0)
        return undefined;
    const status = line.slice(0, tab).split(' ').pop() ?? '';
    if (status.startsWith('D'))
        return undefined;
    return unquotePath(line.slice(tab + 1));
}

;// CONCATENATED MODULE: ./src/run/secret-objects.ts

/**
 * Feeds the lines of each commit in `commits` to `scanner`, raw. Returns why it could not read them all
 * (then the scan is a finding of its own), or undefined when it did.
 */
async function readRawCommits(git, repo, commits, scanner, budget) {
    if (!commits.length)
        return undefined;
    const outOfTime = `reading it ran out of the scan's time limit (${Math.round(budget.limitMs / 1000)} s)`;
    const left = budget.deadline - Date.now();
    if (left <= 0)
        return outOfTime;
    const reader = await git.objectReader(repo, left);
    try {
        for (const commit of commits) {
            const info = await reader.info(commit);
            if (info?.type !== 'commit')
                return `git has no commit ${commit.slice(0, 12)} to read raw`;
            budget.bytes += info.size;
            if (budget.bytes > budget.maxBytes)
                return `what it carries is larger than the scan's bound (commit ${commit.slice(0, 12)} goes past ${budget.maxBytes} bytes)`;
            const object = await reader.read(commit);
            if (!object)
                return `git has no commit ${commit.slice(0, 12)} to read raw`;
            for (const { place, line, text } of rawCommitLines(commit, object.body)) {
                const wait = scanner.add(place, line, text);
                if (wait)
                    await wait;
            }
        }
        return undefined;
    }
    catch (error) {
        if (Date.now() >= budget.deadline)
            return outOfTime;
        return `git could not read the commits raw (${error.message.slice(0, 200)})`;
    }
    finally {
        await reader.close().catch(() => undefined);
    }
}

;// CONCATENATED MODULE: ./src/run/secret-scan.ts
/** Each piece handed to secretlint holds about this many characters (whole lines). */
const PIECE_CHARS = 1 << 20;
/** The lines of one piece that the next piece starts with again: a PEM private key is about 50 lines. */
const OVERLAP_LINES = 100;
/** Findings kept (the rest are counted): the failure names each one, and a log line has its limits. */
const MAX_FINDINGS = 200;
/** The comment filter lets text switch the scan off (`secretlint-disable`): the text here is hostile. */
const IGNORED_RULES = new Set(['@secretlint/secretlint-rule-filter-comments']);
/**
 * Text that a rule of the preset matches but that is no secret, passed to the rule as its own `allows`
 * option (strings match literally; `/…/` are patterns). secretlint already does the same for AWS's
 * documented example keys and for placeholder passwords; these two follow the same two ideas where its
 * lists stop short.
 */
const RULE_ALLOWS = {
    // The example keys of Shopify's changelog, which the Shopify rule's own source quotes (and so every
    // bundle that carries secretlint carries them too), like AWS's AKIAIOSFODNN7EXAMPLE.
    '@secretlint/secretlint-rule-shopify': [
        ['shpss', 'QlRSJy5AXX1cILNjVatTsEIhFxuPF5ex'].join('_'),
        ['shpat', 'r8TRc9ZXAvcVvcrmtr7qoVw69WeeY1ex'].join('_'),
        ['shpca', '7jqbg9cupMkZRxJKXWz3v8BvS8QBa7hMdJfAex'].join('_'),
        ['shppa', '7jqbg9cupMkZRxJKXWz3v8BvS8QBa7hMdJfAex'].join('_'),
    ],
    // The basic-auth rule takes a password containing "password" for a placeholder; so is the word spelt
    // with digits for letters (pa55word, passw0rd, p4ssw0rd). The pattern reads only the password: the
    // part between the user's colon and the `@` (the URL's scheme is followed by `//`, not a name).
    '@secretlint/secretlint-rule-basicauth': ['/:[-\\w]*p[a4][s5][s5]w[o0]rd[-\\w]*@/i'],
};
const emptyPiece = () => ({ text: '', starts: [], places: [], numbers: [] });
let lintLoaded;
/** secretlint and its recommended rules, loaded once, on the first scan (the bundle keeps them apart). */
function loadLint() {
    return (lintLoaded ??= (async () => {
        const [{ lintSource }, { rules }, { secretLintProfiler }] = await Promise.all([
            Promise.all(/* import() */[__nccwpck_require__.e(830), __nccwpck_require__.e(707)]).then(__nccwpck_require__.bind(__nccwpck_require__, 6707)),
            __nccwpck_require__.e(/* import() */ 577).then(__nccwpck_require__.bind(__nccwpck_require__, 1577)),
            __nccwpck_require__.e(/* import() */ 806).then(__nccwpck_require__.bind(__nccwpck_require__, 806)),
        ]);
        // Its profiler keeps a performance mark per rule and piece for as long as the process lives.
        secretLintProfiler.setEnabled(false);
        const config = {
            rules: rules
                .filter((rule) => !IGNORED_RULES.has(rule.meta.id))
                .map((rule) => {
                const allows = RULE_ALLOWS[rule.meta.id];
                return allows
                    ? { id: rule.meta.id, rule, options: { allows: [...allows] } }
                    : { id: rule.meta.id, rule };
            }),
        };
        return async (content) => {
            const result = await lintSource({
                // No file name: no rule reads a file of that name from the disk (the GCP rule reads `.p12`
                // files), and the npm rules look for their tokens in any text. (secretlint wants a name or an
                // extension: a neutral one.)
                source: { content, filePath: '', ext: '.txt', contentType: 'text' },
                options: { config, maskSecrets: true, noPhysicFilePath: true },
            });
            return result.messages.map((m) => ({
                ruleId: m.ruleId,
                messageId: m.messageId,
                line: m.loc.start.line,
                range: m.range,
            }));
        };
    })());
}
/**
 * Lines in, findings out. `add` returns a promise while a piece is being scanned: the reader waits for it
 * before it reads on (backpressure), so at most two pieces are held.
 */
class SecretScanner {
    needles;
    lint;
    findings = [];
    /** Reports past MAX_FINDINGS, counted only. */
    more = 0;
    piece = emptyPiece();
    seen = new Set();
    placeIds = new Map();
    busy;
    failure;
    constructor(needles, lint) {
        this.needles = needles;
        this.lint = lint;
    }
    /** A line of `place`; a promise when the caller should wait before it adds more. */
    add(place, line, text) {
        const piece = this.piece;
        piece.starts.push(piece.text.length);
        piece.text += `${text}\n`;
        piece.places.push(place);
        piece.numbers.push(line);
        if (piece.text.length >= PIECE_CHARS && !this.busy) {
            // The next piece starts with the last lines of this one.
            const keep = Math.min(OVERLAP_LINES, piece.starts.length);
            const from = piece.starts[piece.starts.length - keep];
            this.piece = {
                text: piece.text.slice(from),
                starts: piece.starts.slice(-keep).map((start) => start - from),
                places: piece.places.slice(-keep),
                numbers: piece.numbers.slice(-keep),
            };
            this.busy = this.scanPiece(piece)
                .catch((error) => {
                this.failure = error;
            })
                .finally(() => {
                this.busy = undefined;
            });
        }
        return this.busy;
    }
    /** Scans what is left; throws when a piece could not be scanned. */
    async finish() {
        await this.busy;
        if (this.piece.starts.length)
            await this.scanPiece(this.piece);
        this.piece = emptyPiece();
        if (this.failure)
            throw this.failure;
    }
    async scanPiece(piece) {
        const { text, starts, places, numbers } = piece;
        for (const needle of this.needles) {
            for (let at = text.indexOf(needle.text); at >= 0; at = text.indexOf(needle.text, at + 1))
                this.report(places, numbers, lineAt(starts, at), needle.rule);
        }
        for (const message of await this.lint(text)) {
            const index = Math.min(Math.max(message.line - 1, 0), starts.length - 1);
            this.report(places, numbers, index, `${message.ruleId} (${message.messageId})`);
        }
    }
    report(places, numbers, index, rule) {
        const at = { place: places[index], line: numbers[index] };
        let id = this.placeIds.get(at.place);
        if (id === undefined)
            this.placeIds.set(at.place, (id = this.placeIds.size));
        // Past the kept findings, only counted (a line of the overlap may then count twice).
        if (this.findings.length >= MAX_FINDINGS) {
            this.more++;
            return;
        }
        // A line in the overlap of two pieces is scanned twice: reported once.
        const key = `${id}:${at.line}:${rule}`;
        if (this.seen.has(key))
            return;
        this.seen.add(key);
        this.findings.push({ place: at.place, line: at.line, rule });
    }
}
/** The index of the line that holds `offset`, by binary search over the lines' starts. */
function lineAt(starts, offset) {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid] <= offset)
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}

;// CONCATENATED MODULE: ./src/run/secret-values.ts
/** `env` names that say their value is secret: `*_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` (any case). */
const SECRET_ENV_NAME = /(^|_)(KEY|TOKEN|SECRET|PASSWORD)$/i;
/**
 * Values shorter than this are not searched for: a four-letter "secret" is found in every diff, and so
 * blocks every push. The step says so (`shortSecrets`).
 */
const MIN_SECRET_LENGTH = 8;
function secret_values_knownSecrets(settings) {
    const found = [];
    if (settings.token)
        found.push({ name: 'token', value: settings.token });
    if (settings.network.mode === 'allow' || settings.network.mode === 'audit')
        for (const credential of settings.network.credentials) {
            // `Bearer <token>`, `token <token>`: the part after the scheme is the secret, and every form of the
            // whole value holds a form of that part (base64 at one of its alignments): it alone is searched.
            const scheme = /^[A-Za-z][A-Za-z0-9-]*\s+(\S.*)$/.exec(credential.value);
            found.push({
                name: `credentials for ${credential.host}`,
                value: scheme ? scheme[1] : credential.value,
            });
        }
    for (const entry of settings.env)
        if (SECRET_ENV_NAME.test(entry.name))
            found.push({ name: `env ${entry.name}`, value: entry.value });
    return found;
}
/** The secrets too short to be searched for (their names only). */
function shortSecrets(secrets) {
    const names = secrets.filter((s) => s.value.length > 0 && s.value.length < MIN_SECRET_LENGTH);
    return [...new Set(names.map((s) => s.name))];
}
/**
 * Every form of every secret long enough, each once (the first name that has it), and none that holds
 * another: text that holds the longer one holds the shorter one too, and each costs a pass over the text.
 */
function needlesOf(secrets) {
    const all = allForms(secrets);
    return all.filter((n) => !all.some((m) => m !== n && m.text.length < n.text.length && n.text.includes(m.text)));
}
/** Every form of every secret long enough, each once: what the redaction (redaction.ts) masks. */
function allForms(secrets) {
    const seen = new Set();
    const needles = [];
    const add = (rule, text) => {
        if (text.length < MIN_SECRET_LENGTH || seen.has(text))
            return;
        seen.add(text);
        needles.push({ rule, text });
    };
    for (const { name, value } of secrets) {
        if (value.length < MIN_SECRET_LENGTH)
            continue;
        add(name, value);
        add(`${name} (URL-encoded)`, encodeURIComponent(value));
        add(`${name} (JSON-escaped)`, JSON.stringify(value).slice(1, -1));
        const bytes = Buffer.from(value, 'utf8');
        add(`${name} (hex)`, bytes.toString('hex'));
        for (const text of base64Forms(bytes)) {
            add(`${name} (base64)`, text);
            add(`${name} (base64)`, text.replace(/\+/g, '-').replace(/\//g, '_'));
        }
    }
    return needles;
}
/**
 * The base64 text that `bytes` always produce inside a longer encoded text, at each alignment: encoded
 * after 0, 1 or 2 other bytes, the characters that mix in a neighbour's bits are left out at both ends.
 */
function base64Forms(bytes) {
    const forms = [];
    for (const pad of [0, 1, 2]) {
        const encoded = Buffer.concat([Buffer.alloc(pad), bytes])
            .toString('base64')
            .replace(/=+$/, '');
        const start = Math.ceil((pad * 8) / 6);
        const end = Math.floor(((pad + bytes.length) * 8) / 6);
        if (end > start)
            forms.push(encoded.slice(start, end));
    }
    return forms;
}

;// CONCATENATED MODULE: ./src/run/secret-gate.ts
// `secret-scan`: the check before each way out of a run (a push, a saved patch, a posted reply). What a push
// or a patch carries is read on the host, from the parent's checked objects, through the hardened git
// wrapper: every added line of every commit that leaves (a secret added in one commit and removed in the
// next still leaves in the first), every path name those commits add, and every commit object as git
// stores it (secret-objects.ts: headers, `gpgsig`, the message's bytes), bounded in bytes and time. With
// `block` a finding stops that way out and fails the step, naming each finding by place and rule, never by
// value; with `warn` the findings are warnings. A read that could not be finished (too large, out of time,
// git failing) is a finding of its own: nothing passes unscanned under `block`.








/** The most of git's output read for one scan (the diff with its added and removed lines, raw commits). */
const MAX_SCAN_BYTES = 256 * 1024 * 1024;
/** The step fails with this when `block` found something: what was found, where, and what was held back. */
class SecretScanBlocked extends Error {
    findings;
    constructor(message, findings) {
        super(message);
        this.findings = findings;
        this.name = 'SecretScanBlocked';
    }
}
/** The gate of a run: its mode, the known secrets' forms (each masked in the log from now on). */
function secretGate(settings, ui, onBlocked) {
    const secrets = secret_values_knownSecrets(settings);
    const needles = needlesOf(secrets);
    for (const { value } of secrets)
        if (value)
            ui.mask(value);
    for (const { text } of needles)
        ui.mask(text);
    return { mode: settings.secretScan, needles, short: shortSecrets(secrets), ui, onBlocked };
}
/**
 * Scans the commits `revs` names (commit ids, then `--not` and refs or `--remotes`, as rev-list takes
 * them) in `repo`: `what` says where they were going (`the push to origin/feature`). Returns when they may
 * leave; throws SecretScanBlocked when they may not.
 */
async function checkCommits(git, repo, revs, gate, what) {
    if (gate.mode === 'off')
        return;
    for (const rev of revs)
        if (rev.startsWith('-') ? !['--not', '--remotes'].includes(rev) : !OID.test(rev) && !rev.startsWith('refs/'))
            throw new Error(`Internal error: ${JSON.stringify(rev)} is not a revision the secret scan takes.`);
    sayShort(gate);
    const scanner = new SecretScanner(gate.needles, await loadLint());
    const limitMs = (0,time_limits/* timeLimitMs */.PI)('secret-scan');
    const budget = {
        maxBytes: gate.maxBytes ?? MAX_SCAN_BYTES,
        bytes: 0,
        deadline: Date.now() + limitMs,
        limitMs,
    };
    const read = await readCommits(git, repo, revs, scanner, budget);
    // The commits themselves, as stored: after the diff, so that no piece mixes the two.
    if (!read.incomplete)
        read.incomplete = await readRawCommits(git, repo, read.oids, scanner, budget);
    await scanner.finish();
    const scanned = `${read.oids.length} commit(s) with their headers, ${read.paths} path name(s), ${read.lines} added line(s)`;
    verdict(gate, scanner, what, scanned, read.incomplete);
}
/** Scans a reply before it is posted (`where`: "reply"). Throws SecretScanBlocked when it may not go. */
async function checkReply(text, gate) {
    if (gate.mode === 'off')
        return;
    sayShort(gate);
    const scanner = new SecretScanner(gate.needles, await loadLint());
    const max = gate.maxBytes ?? MAX_SCAN_BYTES;
    const over = Buffer.byteLength(text) > max;
    const lines = (over ? text.slice(0, max) : text).split(/\r?\n/);
    const place = { kind: 'reply' };
    for (let i = 0; i < lines.length; i++)
        await scanner.add(place, i + 1, lines[i]);
    await scanner.finish();
    const incomplete = over ? `the reply is larger than the scan's bound (${mib(max)})` : undefined;
    verdict(gate, scanner, 'the reply', `${lines.length} line(s)`, incomplete);
}
function sayShort(gate) {
    if (!gate.short.length)
        return;
    gate.ui.warning(`secret-scan: ${gate.short.join(', ')} ${gate.short.length > 1 ? 'are' : 'is'} shorter than ${MIN_SECRET_LENGTH} characters: not searched for.`);
    gate.short = [];
}
/**
 * What the scan reads of the diff: each commit's changed paths (`--raw`, folders too: `-t`) and its added
 * lines, every file as text whatever git's guess or the repository's attributes (`-diff`, `binary`) say
 * (a secret in a generated file or a binary blob leaves as surely as one in source), no external diff or
 * textconv, merges against their first parent. A path a commit adds is new to its first parent, so every
 * name of every new tree is listed by the commit that brought it in (or is on origin already).
 */
function scanLogArgs(format, revs) {
    return [
        'log',
        '--no-color',
        '--no-show-signature',
        '--no-ext-diff',
        '--no-textconv',
        '--no-renames',
        '--text',
        '--diff-merges=first-parent',
        '--raw',
        '-t',
        '--patch',
        '--unified=0',
        '--src-prefix=a/',
        '--dst-prefix=b/',
        format,
        ...revs,
        '--',
    ];
}
/**
 * One `git log -p -U0 --raw -t` of the commits, read line by line: each commit's id (after a marker of this
 * call's own, which no commit can know), the paths it changes (every name it adds, folders too), then its
 * added lines with their file and line number. A merge is compared with its first parent, so that what it
 * brings in is scanned too.
 */
async function readCommits(git, repo, revs, scanner, budget) {
    const marker = `wts-scan-${(0,external_node_crypto_.randomBytes)(12).toString('hex')}`;
    const read = { oids: [], paths: 0, lines: 0 };
    let state = 'header';
    let commit = '';
    let names = { kind: 'path', commit };
    let file;
    let newLine = 0;
    let wait;
    const stop = new AbortController();
    const { maxBytes } = budget;
    const onLine = (line, stream) => {
        if (stream !== 'stdout' || stop.signal.aborted)
            return;
        budget.bytes += line.length + 1;
        if (budget.bytes > maxBytes) {
            read.incomplete = `what it carries is larger than the scan's bound (over ${mib(maxBytes)} of diff)`;
            stop.abort();
            return;
        }
        if (line.startsWith(`${marker} `)) {
            commit = line.slice(marker.length + 1);
            if (!OID.test(commit)) {
                read.incomplete = 'git listed a commit id it should not';
                stop.abort();
                return;
            }
            read.oids.push(commit);
            names = { kind: 'path', commit };
            file = undefined;
            state = 'raw';
        }
        else if (state === 'raw' && line.startsWith(':')) {
            const name = rawDiffPath(line);
            if (name === undefined)
                return;
            read.paths++;
            // One place for all of a commit's names, line 0: a finding names the commit, never the path.
            wait = scanner.add(names, 0, name) ?? wait;
        }
        else if (line.startsWith('diff --git ')) {
            state = 'header';
            file = undefined;
        }
        else if (state === 'header') {
            if (line.startsWith('+++ '))
                file = pathOf(line.slice(4), commit);
            else if (line.startsWith('@@ ')) {
                newLine = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line)?.[1] ?? 1);
                state = 'hunk';
            }
        }
        else if (line.startsWith('@@ '))
            newLine = Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(line)?.[1] ?? 1);
        else if (line.startsWith('+') && file) {
            read.lines++;
            // NULs out: UTF-16 text then reads as its characters, and a blob's printable runs as text.
            const text = line.includes('\0') ? line.slice(1).replace(/\0/g, '') : line.slice(1);
            wait = scanner.add(file, newLine++, text) ?? wait;
        }
    };
    const limitMs = Math.max(1, budget.deadline - Date.now());
    const result = await git.stream(repo, scanLogArgs(`--format=${marker} %H`, revs), {
        onLine,
        // A line is never cut (a secret past the cut would pass): the byte bound above stops a long one.
        maxLineBytes: maxBytes + 1,
        // While a piece is scanned, git waits (its output is not read on meanwhile).
        backpressure: () => {
            const w = wait;
            wait = undefined;
            return w;
        },
        signal: stop.signal,
        timeLimitMs: limitMs,
    });
    if (!read.incomplete && result.timedOut)
        read.incomplete = `reading it ran out of the scan's time limit (${Math.round(budget.limitMs / 1000)} s)`;
    else if (!read.incomplete && result.exitCode !== 0)
        read.incomplete = `git could not list it (${sandboxText(result.stderrTail.slice(-2).join(' '), 300)})`;
    return read;
}
/** A `+++` line's path: `b/name`, `"b/na\tme"` (git's quoting kept, for the eye only), or /dev/null. */
function pathOf(raw, commit) {
    const name = raw.endsWith('\t') ? raw.slice(0, -1) : raw;
    if (name === '/dev/null')
        return undefined;
    const quoted = name.startsWith('"') && name.endsWith('"');
    const inner = quoted ? name.slice(1, -1) : name;
    return { kind: 'file', path: inner.startsWith('b/') ? inner.slice(2) : inner, commit };
}
function verdict(gate, scanner, what, scanned, incomplete) {
    const { ui } = gate;
    if (!scanner.findings.length && !incomplete) {
        ui.info(`Secret scan of ${what}: nothing found (${scanned}).`);
        return;
    }
    // A path name with a finding holds the secret, and any later commit may touch that file: no path shown.
    const hidePaths = scanner.findings.some((f) => f.place.kind === 'path');
    const lines = scanner.findings.map((finding) => describeFinding(finding, hidePaths));
    if (scanner.more)
        lines.push(`… and ${scanner.more} more report(s)`);
    if (incomplete)
        lines.push(`not scanned whole: ${incomplete}`);
    const count = scanner.findings.length + scanner.more;
    const head = `Secret scan of ${what}: ${count} finding(s)${incomplete ? ', and it could not be scanned whole' : ''} (${scanned})`;
    if (gate.mode === 'warn') {
        ui.warning(`${head}; secret-scan: warn lets it go on:\n${lines.map((l) => `  ${l}`).join('\n')}`);
        return;
    }
    gate.onBlocked?.();
    throw new SecretScanBlocked(`${head}. Nothing of it left (secret-scan: block); the sandbox keeps the work for a person to look at. Values are never shown:\n${lines.map((l) => `  ${l}`).join('\n')}`, scanner.findings);
}
/**
 * `added line in src/app.js:12 of 0123456789ab: env API_KEY`, `author of 0123456789ab: token`: the place
 * and the rule, never the value. A path is sandbox text (escaped); a path name with a finding is not shown
 * (it holds the secret), and with `hidePaths` (some path name had a finding) no path is.
 */
function describeFinding(finding, hidePaths = false) {
    const { place, line, rule } = finding;
    if (place.kind === 'reply')
        return `reply, line ${line}: ${rule}`;
    const of = place.commit.slice(0, 12);
    let where;
    switch (place.kind) {
        case 'file':
            where = hidePaths
                ? `added line ${line} of ${of}, in a file whose path is not shown (a path name has a finding)`
                : `added line in ${sandboxText(place.path, 300)}:${line} of ${of}`;
            break;
        case 'message':
            where = `message of ${of}, line ${line}`;
            break;
        case 'author':
        case 'committer':
            where = `${place.kind} of ${of}`;
            break;
        case 'header':
            where = `${place.name ? `header ${place.name}` : 'an extra header'} of ${of}, line ${line}`;
            break;
        case 'path':
            where = `path name in ${of}`;
            break;
    }
    return `${where}: ${rule}`;
}
function mib(bytes) {
    return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
}

;// CONCATENATED MODULE: ./src/run/push.ts




function authConfig(url, token) {
    if (!token || !/^https?:\/\//i.test(url))
        return [];
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    const { protocol, host } = new URL(url);
    return [[`http.${protocol}//${host}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
async function pushBranch(git, parent, originUrl, branch, sha, token, options = {}) {
    const trackingRef = options.trackingRef ?? `refs/remotes/origin/${branch}`;
    const label = options.label ?? `origin/${branch}`;
    const result = await git.exec(parent.path, ['push', '--porcelain', '--no-verify', '--', originUrl, `${sha}:refs/heads/${branch}`], {
        config: authConfig(originUrl, token),
        work: 'git-push',
        purpose: `pushing the run's commits to ${label}`,
    });
    if (result.exitCode === 0) {
        // The remote-tracking ref now names what origin has, so that the pushed commits count as on a remote.
        await withRepositoryLock(parent.gitDir, async () => {
            await git.exec(parent.path, ['update-ref', '-m', 'worktree-sandbox: pushed', '--', trackingRef, sha]);
        });
        return { pushed: true };
    }
    const text = `${result.stdout}\n${result.stderr}`;
    const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\]/.test(text);
    const reason = rejected
        ? `${label} has moved on since the sandbox started: the push was rejected (nothing is ever force-pushed). Rebase or rerun.`
        : `git push failed: ${result.stderr.trim().split('\n').slice(-2).join(' ')}`;
    return { pushed: false, rejected, reason };
}
/** A run's push: its branch tip, to `to`, once the secret scan lets the commits go. */
async function pushSandbox(git, sandbox, report, to, token, ui, gate) {
    if (!sandbox.branch)
        return { pushed: false, reason: 'a transient sandbox has no branch to push' };
    // What is pushed is the branch tip the parent recorded from the bundle, and only while HEAD was on it.
    if (report.currentBranch !== sandbox.branch || report.headSha !== report.tip) {
        return {
            pushed: false,
            reason: `the sandbox is no longer on its branch (HEAD: ${report.currentBranch ? 'another branch' : 'detached'}); nothing pushed`,
        };
    }
    if ('withheld' in to) {
        if (report.commits === 0)
            return { pushed: false, reason: 'no new commits' };
        ui.info(`Nothing pushed: ${to.withheld}.`);
        return { pushed: false, reason: to.withheld };
    }
    // Counted against the destination, not against this run's start: a run killed before its push
    // completed left commits that the next run must still push.
    const parentPath = sandbox.parent.path;
    const tracking = (await git.refExists(parentPath, to.trackingRef)) ? [to.trackingRef] : ['--remotes'];
    const unpushed = await commitsNotIn(git, parentPath, report.tip, tracking);
    if (unpushed === 0)
        return { pushed: false, reason: `no commits that ${to.label} does not have` };
    await checkCommits(git, parentPath, [report.tip, '--not', ...tracking], gate, `the push to ${to.label}`);
    const result = await pushBranch(git, sandbox.parent, to.url, to.branch, report.tip, token, {
        trackingRef: to.trackingRef,
        label: to.label,
    });
    const atLeast = unpushed >= MAX_COUNTED_COMMITS ? 'at least ' : '';
    if (result.pushed)
        ui.info(`Pushed ${atLeast}${unpushed} commit(s) to ${to.label}.`);
    else
        ui.warning(result.reason ?? 'push failed');
    return result;
}

;// CONCATENATED MODULE: ./src/run/run-log.ts
// What a run says in the log about its sandbox and its command, in words a person reads.

function describeSandbox(ui, sandbox, source, offered) {
    const what = sandbox.branch
        ? `branch ${sandbox.branch} (${sandbox.reused ? 'reused' : source})`
        : `detached at ${sandbox.startSha.slice(0, 12)}`;
    ui.info(`${sandbox.reused ? 'Reusing' : 'Created'} ${sandbox.name}: ${what}; ${whereIs(sandbox)}.`);
    if (offered)
        ui.info(`origin/${sandbox.branch} moved to ${offered.slice(0, 12)}: offered inside as origin/${sandbox.branch} (the work tree is left as it is).`);
}
function reportCommand(ui, command) {
    const seconds = (command.durationMs / 1000).toFixed(1);
    if (command.timedOut)
        ui.warning(`The command was stopped by timeout-minutes after ${seconds}s (exit code ${command.exitCode}).`);
    else if (command.oomKilled)
        ui.warning(`The command was killed by the memory limit (exit code ${command.exitCode}).`);
    else
        ui.info(`The command exited with code ${command.exitCode} after ${seconds}s.`);
}
/** A command's first line, at most 80 characters: the title of its log group. */
function firstLine(text) {
    const line = text.trim().split('\n')[0];
    return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

;// CONCATENATED MODULE: ./src/run/run.ts
// Run mode, as the steps of docs/run-mode.md, each awaited in order: the parent repository, the branch,
// the sandbox's name and place, the sandbox (under its lock), the run, the import and the report, the
// push. Each long step is a log group. Start-up devices (questions asked early, guesses at reuse) went
// where they did not measurably pay (ADR 0011; docs/benchmarks.md).






















async function runSandbox(settings, deps) {
    const { ui } = deps;
    maskSecrets(settings, ui);
    const engine = (0,engine_engine/* createEngine */.P)(settings.engine);
    const git = await createGit();
    // 1. The parent repository (a bad branch name is the error reported whenever it is one).
    await validateBranchNames(settings, (name) => git.isValidBranchName(name));
    const { head, ...parent } = await findParentRepository(git, settings.repositoryPath);
    if (parent.resolvedFrom)
        ui.info(`${parent.resolvedFrom} is a linked worktree: working from its parent ${parent.path}.`);
    // A path the engine cannot see is refused before anything is created, naming it and the fix.
    const worktreeRoot = settings.isolation === 'disk' ? await realRoot(settings.worktreeRoot) : settings.worktreeRoot;
    const readOnlyFiles = deps.command?.readOnlyFiles;
    (0,host_paths/* requireVisible */.Qe)(await engine.hostView(), mountedPaths(parent, settings.isolation, worktreeRoot, readOnlyFiles));
    // 2. The branch; 3. the sandbox's name and place.
    const plan = await resolveBranch(git, { ...parent, head }, settings.branch, settings.base);
    ui.debug(`Branch plan: ${JSON.stringify(plan)}`);
    const location = locateSandbox(plan, parent, settings.isolation, worktreeRoot, settings.volumePrefix);
    ui.debug(`Sandbox plan: ${location.name} (${location.kind}, ${location.isolation}) at ${whereIs(location)}; work tree ${location.worktreePath}, home ${location.homePath}; records under ${sandboxRefs(location).prefix}.`);
    const originUrl = settings.push ? await git.remoteUrl(parent.path, 'origin') : undefined;
    if (settings.push && !originUrl && !deps.pushTo)
        throw new Error(`push: true needs a remote named origin in ${parent.path}.`);
    // The proof that the engine sees the folders where the action sees them, before anything is written or
    // run: by a helper the engine creates (it also proves the image there), or, for a sandbox taken as it
    // is, by its command's own container (EngineViewProof).
    const proof = new EngineViewProof(engine, settings.image, probedFolders(parent, settings.isolation, worktreeRoot), () => engine.ensureImage(settings.image), 
    // Saved before the engine creates it: a main step killed before `proof.remove` leaves its post step
    // the name (cleanup.ts, removeLeftProbe).
    (name) => deps.save({ probe: name ? { engine: settings.engine, name } : undefined }));
    try {
        const wait = settings.lockTimeoutMinutes * 60_000;
        const release = await lockSandbox(parent.gitDir, location.name, wait, (m) => ui.info(m));
        deps.onSandboxLock?.(true);
        try {
            return await runLocked(settings, deps, { engine, git, plan, location, proof, worktreeRoot, originUrl });
        }
        finally {
            deps.onSandboxLock?.(false);
            await release();
        }
    }
    finally {
        // What the probe made goes, if the command's end did not start that (runLocked); never on the way
        // to the command.
        await proof.remove();
    }
}
/** The token, the credentials' values and secret-named env values are masked before anything could print them. */
function maskSecrets(settings, ui) {
    if (settings.token)
        ui.mask(settings.token);
    // A credential's value is the proxy's alone.
    if (settings.network.mode === 'allow' || settings.network.mode === 'audit')
        for (const { value } of settings.network.credentials)
            ui.mask(value);
    for (const { value } of secret_values_knownSecrets(settings))
        if (value)
            ui.mask(value);
}
/** 4. to 6., with the sandbox's lock held: the sandbox, the run, the import and the report, the push. */
async function runLocked(settings, deps, planned) {
    const { ui } = deps;
    const { engine, git, location, proof, originUrl } = planned;
    const prepared = await ui.group(`Sandbox ${location.name} (${location.kind}, ${location.isolation})`, () => sandboxReady(settings, deps, planned));
    const { sandbox, offerCleared } = prepared;
    const commandName = containerName(sandbox.name);
    // With an allow-list or audit, the proxy and its sidecar: stopped with the command, or below if the
    // command never ran.
    const policy = settings.network;
    const network = (0,network_policy/* isProxied */.S7)(policy)
        ? await startCommandNetwork(engine, policy, sandbox, commandName)
        : undefined;
    try {
        // The command's container carries the probe's files: until the engine has created it, the post step
        // knows the engine's view unproven, and touches nothing of the sandbox (RunState.viewProof).
        const viewProof = proof.helperStarted ? undefined : await proof.forCommand(sandbox);
        deps.save({
            ready: true,
            startSha: sandbox.startSha,
            ...(viewProof ? { viewProof: { files: viewProof.files } } : {}),
        });
        const command = await ui.group(`Run: ${firstLine(settings.command)}`, () => ui.untrusted((write) => runCommand(engine, sandbox, {
            command: settings.command,
            image: settings.image,
            env: settings.env,
            limits: settings.limits,
            timeoutMinutes: settings.timeoutMinutes,
            author: settings.author,
            committer: settings.committer,
            worktreeRoot: planned.worktreeRoot,
            readOnlyFiles: deps.command?.readOnlyFiles,
            extraEnv: deps.command?.extraEnv,
            containerName: commandName,
            network,
            viewProof,
        }, {
            onStart: (container) => deps.save({ container }),
            onCreated: viewProof ? () => deps.save({ viewProof: undefined }) : undefined,
            onLine: write,
            outputFd: write.fd,
            ready: write.flush,
            onStderrChunk: write.raw,
            drained: write.drained,
            tail: deps.tail,
        })));
        deps.save({ container: undefined, exitCode: command.exitCode });
        // What the probe made goes while the work is imported, not after it: runSandbox awaits it at the end.
        void proof.remove();
        reportCommand(ui, command);
        // The reply is scanned before it is shown anywhere: with `block`, a secret in it fails the step here,
        // before the work is imported or pushed, and the sandbox keeps everything for a person to look at.
        const gate = secretGate(settings, ui, () => deps.save({ secretsFound: true }));
        const replyText = command.reply?.reply?.text;
        if (replyText)
            await ui.group('Secret scan: the reply', () => checkReply(replyText, gate));
        reportReply(ui, command.reply);
        const wantsCommit = settings.push && !!sandbox.branch;
        const report = await ui.group('Import', async () => {
            const r = await collectChanges(git, engine, sandbox, settings, wantsCommit ? settings.commitMessage : undefined);
            if (r.staleLocks)
                ui.info(`Removed ${r.staleLocks} stale git lock(s) (HEAD's, the branch's) a killed git left in ${sandbox.name}, to commit its leftovers.`);
            reportCleared(ui, sandbox.name, r.trapsCleared ?? []);
            ui.fenced(r.diffStat || 'No changes.');
            if (r.countsStopped)
                ui.warning(`The changed files were not all counted: ${r.countsStopped}.`);
            if (r.branchUpdate)
                ui.info(`The parent's ${sandbox.branch}: ${r.branchUpdate}.`);
            return r;
        });
        deps.save({
            report: {
                uncommittedCount: report.uncommittedCount,
                uncommittedExact: report.uncommittedExact,
                currentBranch: report.currentBranch.slice(0, 256),
            },
        });
        let push;
        if (settings.push) {
            const to = deps.pushTo ?? {
                url: originUrl,
                branch: sandbox.branch,
                trackingRef: `refs/remotes/origin/${sandbox.branch}`,
                label: `origin/${sandbox.branch}`,
            };
            push = await ui.group('Push', () => pushSandbox(git, sandbox, report, to, settings.token, ui, gate));
        }
        const trapsCleared = [...offerCleared, ...(report.trapsCleared ?? [])];
        return { sandbox, command, report, push, ...(trapsCleared.length ? { trapsCleared } : {}) };
    }
    finally {
        await network?.stop().catch(() => undefined);
    }
}
/**
 * 4. The sandbox: what killed runs left goes, the sandbox is made or taken as it is, and a reused one is
 * offered origin's new commits. What the post step needs is saved once the engine has the image and is
 * known to see the folders (or, for a sandbox proved by its command's container, is to be shown so), and
 * before anything is written: a run that fails either check leaves the post step nothing to do.
 */
async function sandboxReady(settings, deps, { engine, git, plan, location, proof }) {
    const { ui } = deps;
    const saveForPost = () => deps.save({
        engine: settings.engine,
        image: settings.image,
        cleanup: settings.cleanup,
        location,
        collect: {
            author: settings.author,
            committer: settings.committer,
            maxImportBytes: settings.maxImportBytes,
        },
    });
    let checked;
    const checks = () => (checked ??= proof.byHelper().then(saveForPost));
    // We hold the sandbox lock, so a command container still there belongs to a run that was killed; and,
    // whatever their sandbox, what killed runs with an allow-list left ended on this engine. One engine
    // question each, overlapping the sandbox's records (docs/benchmarks.md).
    const [sandbox, ...left] = await Promise.all([
        prepareSandbox(git, engine, location, plan, { name: settings.image, ready: checks }, ui),
        removeLeftContainers(engine, location),
        (0,leftovers/* removeLeftNetworkContainers */.a9)(engine),
    ]);
    const orphans = left.flat();
    if (orphans.length)
        ui.info(`Removed container(s) left by a run that was killed: ${orphans.join(', ')}.`);
    // A sandbox taken as it is, with no helper to run on it first, is proved by its command's container.
    if (sandbox.reused && !sandbox.upstreamNew && !proof.helperStarted) {
        await engine.ensureImage(settings.image);
        saveForPost();
    }
    else
        await checks();
    const offer = await offerUpstream(git, engine, sandbox, settings.image);
    describeSandbox(ui, sandbox, plan.source, offer.offered);
    reportCleared(ui, sandbox.name, offer.cleared);
    return { sandbox, offerCleared: offer.cleared };
}

;// CONCATENATED MODULE: ./src/present/run-summary.ts
// The job summary and the plain-text report: one table a person reads at a glance; and the reply as a
// section of Markdown, for the summary and the progress comment alike.





/** Why nothing outside the sandbox can have changed, in one sentence. */
const BOUNDARY_SENTENCE = "Nothing outside the sandbox could change: the command's container could write only its sandbox (the parent's objects were mounted read-only, its .git hidden), and its work came back as a git bundle that git checked as it fetched it.";
// A branch (in a value, and in the key of the parent's branch), a sandbox's place, git's reason for a
// refused push: text that may come from the sandbox or a pull request, inert in the table (no cell end,
// no link, no HTML).
const esc = (text) => untrustedInline(text);
function outcomeRows(outcome) {
    const { sandbox, command, report, push } = outcome;
    const status = command.timedOut
        ? `⏱ timed out (exit ${command.exitCode})`
        : command.oomKilled
            ? `💥 out of memory (exit ${command.exitCode})`
            : command.exitCode === 0
                ? '✅ exit 0'
                : `❌ exit ${command.exitCode}`;
    const rows = [
        ['Command', status],
        ['Duration', `${(command.durationMs / 1000).toFixed(1)} s`],
        ['Sandbox', `${sandbox.name} (${sandbox.kind}, ${sandbox.reused ? 'reused' : 'new'})`],
        ['Branch', sandbox.branch || `detached at ${sandbox.startSha.slice(0, 12)}`],
        ['Where', whereIs(sandbox)],
        ['Files changed', filesChanged(report)],
        ['New commits', `${report.commitsAtLeast ? 'at least ' : ''}${report.commits}`],
        ['HEAD', report.headSha.slice(0, 12)],
    ];
    if (push)
        rows.push(['Pushed', push.pushed ? 'yes' : `no: ${push.reason}`]);
    if (report.branchUpdate)
        rows.push([`Parent's ${sandbox.branch}`, report.branchUpdate]);
    // Named by the helpers that removed them (git-traps.ts): a few entries, each path escaped and bounded.
    if (outcome.trapsCleared?.length)
        rows.push(['Removed from .git', describeCleared(outcome.trapsCleared)]);
    rows.push(['Boundary', BOUNDARY_SENTENCE]);
    return rows;
}
/** The count of changed files; "at least" when counting stopped at its bounds (the reason follows). */
function filesChanged(report) {
    const n = markdown_thousands(report.changedCount);
    return report.countsStopped ? `at least ${n} (counting stopped: ${report.countsStopped})` : n;
}
// Size: the table is a few hundred bytes of the action's own text and names it chose; the diff stat is at
// most STAT_MAX_BYTES (report.ts: 64 KiB) and says what it left out, and at most STAT_MAX_CHARS once
// escaped; the reply at most REPLY_MAX_BYTES (reply.ts: 64 KiB), and twice that once escaped. The whole
// stays below the runner's 1 MiB limit for one step's summary (step-summary.ts holds it there).
function outcomeMarkdown(outcome) {
    const rows = outcomeRows(outcome).map(([k, v]) => [esc(k), esc(v)]);
    // The diff stat (file names from the sandbox) in a block nothing in it can leave, its cut said.
    const { diffStat } = outcome.report;
    const cut = (n) => `${n} more characters of the diff stat are not shown.`;
    const stat = diffStat ? `\n\n${details('Diff stat', blockWithCut(diffStat, STAT_MAX_CHARS, cut))}` : '';
    const reply = replyMarkdown(outcome.command.reply, {
        heading: "### The command's reply",
        maxChars: 2 * REPLY_MAX_BYTES,
    });
    return `## worktree-sandbox: run\n\n${table(['', ''], rows)}${reply ? `\n\n${reply}` : ''}${stat}\n`;
}
/** The diff stat's characters as written (64 KiB of names, some written as entities). */
const STAT_MAX_CHARS = 200_000;
function outcomeText(outcome) {
    const rows = outcomeRows(outcome);
    const width = Math.max(...rows.map(([k]) => k.length));
    return [
        ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
        outcome.report.diffStat ? `\n${outcome.report.diffStat}` : '',
    ]
        .join('\n')
        .trimEnd();
}
/**
 * The reply as a section of Markdown (the job summary, the progress comment): a heading, the text in a
 * block nothing in it can escape (untrusted-markdown.ts), the images it would show as links, and what was
 * cut. Empty when there is no reply. `redact` takes known secrets out of the text first.
 */
function replyMarkdown(read, options) {
    const reply = read?.reply;
    if (!reply && read?.warning)
        return `${options.heading}\n\n${inlineText(read.warning)}`;
    if (!reply || !reply.text.trim())
        return '';
    const text = options.redact ? options.redact(reply.text) : reply.text;
    const block = untrustedBlock(text, options.maxChars);
    const notes = [];
    if (reply.cut)
        notes.push(cutSentence(reply));
    if (block.leftOut > 0)
        notes.push(`${thousands(block.leftOut)} more characters are left out here${options.elsewhere ? `: ${options.elsewhere}` : ''}.`);
    const said = notes.length ? `\n\n_${notes.join(' ')}_` : '';
    const images = imageLinks(text);
    return `${options.heading}\n\n${block.markdown}${images ? `\n\n${images}` : ''}${said}`;
}

;// CONCATENATED MODULE: ./src/cli/exit-codes.ts
// The CLI's exit codes: one table for the code, `--help` and docs/cli.md (a test keeps docs/cli.md in step).
const EXIT = { ok: 0, error: 1, usage: 2, commandFailed: 3, refused: 4 };
const EXIT_CODES = [
    [EXIT.ok, 'success (reap: it ran, whatever it kept; list: whatever it found)'],
    [EXIT.error, 'error: engine unreachable, git failure, rm: no such sandbox or the removal failed'],
    [EXIT.usage, 'usage: an unknown option, an invalid value, rm: a NAME that needs --project'],
    [EXIT.commandFailed, 'run: the sandboxed command exited non-zero (its code is printed)'],
    [EXIT.refused, 'rm: a safety gate kept the sandbox (holds work, in use, not a sandbox)'],
];
function exitCodesHelp() {
    return `Exit codes:\n${EXIT_CODES.map(([code, text]) => `  ${code}  ${text}`).join('\n')}`;
}
/** An error that ends the CLI with a given exit code and one line on stderr. */
class CliExit extends Error {
    exitCode;
    constructor(message, exitCode) {
        super(message);
        this.exitCode = exitCode;
    }
}

;// CONCATENATED MODULE: ./src/reap/reap-report.ts

function isReaped(s) {
    return s.result === 'removed' || s.result === 'partly removed' || s.result === 'would remove';
}
/** What a reap did, in one sentence: the CLI's headline and the job summary's line. */
function reapTally(result) {
    const reaped = result.sandboxes.filter(isReaped).length;
    const [removed, freed] = result.dryRun ? ['would be removed', 'would be freed'] : ['removed', 'freed'];
    return `${result.stats.found} found, ${result.stats.stale} stale, ${reaped} ${removed}, ${result.sandboxes.length - reaped} kept; ${formatBytes(result.freedBytes)} ${freed}.`;
}
function reasonOf(s) {
    switch (s.result) {
        case 'would remove':
            return `dry run: would remove: ${s.reason}`;
        case 'partly removed':
            return `${s.reason}; ${s.detail}: ${s.problems?.map((p) => `${p.path} (${p.error})`).join(', ')}`;
        case 'removed':
            return s.archived?.length ? `${s.reason} (${s.archived.join(', ')})` : s.reason;
        case 'kept':
            return s.action === 'remove' ? `${s.reason}; not removed: ${s.detail}` : s.reason;
    }
}
function toRecord(s) {
    return {
        sandbox: s.sandbox,
        project: s.project,
        isolation: s.isolation,
        kind: s.class,
        ageDays: s.ageDays ?? null,
        reason: reasonOf(s),
    };
}
/** `localeCompare`'s order, with the collator made once. */
const collator = new Intl.Collator();
/**
 * The most telling entries first: removals, then stale ones kept, then the rest, oldest first (a copy).
 * Each entry's rank is worked out once, not at every comparison: a reap lists thousands.
 */
function byInterest(sandboxes) {
    return sandboxes
        .map((s) => ({ s, rank: rank(s), age: s.ageDays ?? -1 }))
        .sort((a, b) => a.rank - b.rank || b.age - a.age || collator.compare(a.s.where, b.s.where))
        .map(({ s }) => s);
}
function rank(s) {
    if (isReaped(s))
        return 0;
    if (s.action === 'remove' || !/^fresh|^age unknown/.test(s.reason))
        return s.class === 'not-a-sandbox' ? 2 : 1;
    return 3;
}
// The reaper's log lines: each decision with every fact it was made from, for a debug log, and text from
// the disk made safe to print. Pure.
/** The longest debug line of one decision (its facts include text from the disk). */
const TRACE_MAX = 8_000;
/**
 * One line for the debug log: a decision and every fact it was made from. `lookedAt`: the entry was
 * stale, so whether it is in use and holds work was checked; `dryRun`: a removal is only reported.
 */
function decisionTrace(d, facts, lookedAt, dryRun = false) {
    const verb = d.action === 'remove' ? (dryRun ? 'would remove' : 'remove') : 'keep';
    const parts = [
        `${verb} ${d.project}/${d.sandbox} (${d.isolation === 'disk' ? d.where : `volume ${d.where}`})`,
        `class ${d.class}${d.expiryDays === undefined ? '' : `, expiry ${d.expiryDays} days`}`,
        ...checked(d, facts, lookedAt),
    ];
    if (facts.sizeBytes !== undefined)
        parts.push(`size ${formatBytes(facts.sizeBytes)}`);
    parts.push(`reason: ${d.reason}`);
    if (d.archive)
        parts.push(`archive: ${d.archive === 'work' ? 'patch and bundle' : 'every file'}`);
    // Folder names, helper errors and work details came from the disk: one escaped line, bounded.
    return sandboxText(parts.join('; '), TRACE_MAX);
}
/** What was looked at: nothing but sandboxes has an age, and only stale ones are looked at closer. */
function checked(d, facts, lookedAt) {
    if (facts.notSandbox)
        return [`not a sandbox: ${facts.notSandbox}`];
    const age = d.ageDays === undefined
        ? 'age unknown (no activity signal)'
        : `${d.ageDays} day(s) old (last activity ${new Date(d.lastActivityMs).toISOString()})`;
    if (!lookedAt)
        return [age, 'not stale: in use and work not checked'];
    return [
        age,
        `in use: ${facts.inUse ?? 'no'}`,
        ...(facts.orphan ? [`orphan: ${facts.orphan}`] : []),
        `work: ${workText(facts)}`,
    ];
}
function workText(facts) {
    if (facts.inUse)
        return 'not checked (in use)';
    if (facts.orphan)
        return 'not checkable (no parent)';
    const work = facts.work;
    if (!work)
        return 'not checked';
    if (work.state === 'clean')
        return 'none';
    if (work.state === 'work')
        return work.detail;
    if (work.state === 'unknown')
        return `could not check (${work.detail})`;
    return 'not checkable';
}
// Sizes as a person reads them, in binary units: the job summary, its chart and the CLI alike.
function formatBytes(bytes) {
    if (bytes === undefined)
        return '–';
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let value = bytes;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
    }
    return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

;// CONCATENATED MODULE: ./src/ui/ui.ts
/**
 * Lines to a stream that may be a pipe (the runner's, a pager): the lines of one chunk of output are
 * written in one call when the producer asks whether it may go on (`drained`), and a pipe that cannot
 * take them yet makes it wait. Memory stays bounded however much is printed, and a gigabyte of short lines
 * costs one write per chunk, not one per line. `drained()` also flushes: call it once at the end.
 */
function streamLineWriter(stream, format, options = {}) {
    let batch = [];
    let full = false;
    let endsLine = true;
    const put = (data) => {
        if (data.length === 0)
            return;
        if (!stream.write(data))
            full = true;
        endsLine = typeof data === 'string' ? data.endsWith('\n') : data[data.length - 1] === 10;
    };
    const write = ((line) => {
        batch.push(format(line));
    });
    if (options.raw) {
        write.fd = 1;
        write.raw = put;
    }
    write.drained = () => {
        if (batch.length)
            put(batch.join(''));
        batch = [];
        if (!full)
            return undefined;
        return new Promise((resolve) => stream.once('drain', () => {
            full = false;
            resolve();
        }));
    };
    write.flush = async () => {
        await write.drained();
        // Whatever the stream still queues reaches the descriptor before anyone else writes to it.
        if (stream.writableLength)
            await new Promise((resolve) => stream.once('drain', () => resolve()));
    };
    write.end = () => {
        void write.drained();
        // After direct output nobody knows how it ended: a line of its own for what follows.
        if (!endsLine || options.raw)
            put('\n');
    };
    return write;
}
const silentUi = {
    info: () => undefined,
    debug: () => undefined,
    debugging: false,
    warning: () => undefined,
    group: (_title, fn) => fn(),
    untrusted: (fn) => fn(() => undefined),
    fenced: () => undefined,
    mask: () => undefined,
};

;// CONCATENATED MODULE: ./src/reap/decide.ts


/** Class, expiry and age of one entry: the first question, asked before any check for work runs. */
function assessStaleness(facts, retention, nowMs) {
    if (facts.notSandbox)
        return { class: 'not-a-sandbox', stale: false };
    const cls = retentionClass(facts.sandbox, facts.orphan !== undefined);
    const expiry = expiryDays(cls, retention);
    const age = facts.lastActivityMs === undefined ? undefined : ageDays(facts.lastActivityMs, nowMs);
    return {
        class: cls,
        expiryDays: expiry,
        ageDays: age,
        stale: isExpired(facts.lastActivityMs, nowMs, expiry),
    };
}
function decide(all, policy, nowMs) {
    const decisions = all.map((facts) => decideOne(facts, policy, nowMs));
    return capRemovals(decisions, policy.maxRemovals);
}
function decideOne(facts, policy, nowMs) {
    const staleness = assessStaleness(facts, policy.retention, nowMs);
    const base = keepDecision(facts, staleness);
    if (facts.notSandbox)
        return { ...base, reason: `not a sandbox: ${facts.notSandbox}` };
    if (!staleness.stale)
        return { ...base, reason: freshReason(staleness) };
    const verdict = applyGates(gateFactsOf(facts), policy);
    const held = verdict.held ? { held: verdict.held } : {};
    if (!verdict.remove)
        return { ...base, reason: verdict.reason, ...held };
    return { ...base, action: 'remove', reason: verdict.reason, archive: verdict.archive, ...held };
}
/**
 * A removal asked for by name (the CLI's `rm`): the person asking has judged the age, so only the safety
 * gates apply, exactly as the reaper applies them to a stale sandbox.
 */
function decideOnRequest(facts, policy, nowMs) {
    const base = keepDecision(facts, assessStaleness(facts, policy.retention, nowMs));
    const verdict = applyGates(gateFactsOf(facts), policy);
    const held = verdict.held ? { held: verdict.held } : {};
    if (!verdict.remove)
        return { ...base, reason: verdict.reason, ...held };
    // The gates speak of a stale sandbox; this one may be fresh.
    const reason = verdict.reason.replace(/^stale and /, '');
    return { ...base, action: 'remove', reason, archive: verdict.archive, ...held };
}
function keepDecision(facts, staleness) {
    return {
        key: facts.key,
        sandbox: facts.sandbox,
        project: facts.project,
        isolation: facts.isolation,
        where: facts.where,
        class: staleness.class,
        ageDays: staleness.ageDays,
        expiryDays: staleness.expiryDays,
        lastActivityMs: facts.lastActivityMs,
        sizeBytes: facts.sizeBytes,
        action: 'keep',
        reason: '',
    };
}
/** What the gates look at: an orphan's work is unchecked; work never checked counts as "could not check". */
function gateFactsOf(facts) {
    return {
        notSandbox: facts.notSandbox,
        inUse: facts.inUse,
        orphan: facts.orphan,
        work: facts.orphan
            ? { state: 'unchecked' }
            : (facts.work ?? { state: 'unknown', detail: 'it was not checked' }),
    };
}
function freshReason(staleness) {
    if (staleness.ageDays === undefined)
        return 'age unknown (no activity signal could be read): kept';
    return `fresh: ${staleness.ageDays} of ${staleness.expiryDays} days`;
}
/** Like actions/stale's operations-per-run: the oldest removals go first, the rest wait for the next run. */
function capRemovals(decisions, maxRemovals) {
    if (maxRemovals <= 0)
        return decisions;
    const removals = decisions
        .filter((d) => d.action === 'remove')
        .sort((a, b) => (a.lastActivityMs ?? 0) - (b.lastActivityMs ?? 0) || a.key.localeCompare(b.key));
    const deferred = new Set(removals.slice(maxRemovals).map((d) => d.key));
    return decisions.map((d) => deferred.has(d.key)
        ? {
            ...d,
            action: 'keep',
            archive: undefined,
            reason: `stale, but max-removals (${maxRemovals}) is reached: waits for the next run`,
        }
        : d);
}
function applyGates(facts, options) {
    if (facts.notSandbox)
        return { remove: false, reason: `not a sandbox: ${facts.notSandbox}` };
    if (facts.inUse)
        return { remove: false, reason: `in use: ${facts.inUse}` };
    const { work } = facts;
    if (work.state === 'unchecked' || facts.orphan) {
        const why = facts.orphan ?? 'its parent repository is gone';
        return options.archive
            ? { remove: true, reason: `orphan (${why}): files archived, then removed`, archive: 'files' }
            : { remove: true, reason: `orphan (${why}): removed after the orphan expiry` };
    }
    if (work.state === 'clean')
        return { remove: true, reason: 'stale and holds no work' };
    const why = work.state === 'work'
        ? `holds work: ${work.detail}`
        : `the check for work could not run (${work.detail})`;
    const held = work.state === 'work' && work.held ? { held: work.held } : {};
    if (!options.force)
        return { remove: false, reason: why, ...held };
    return options.archive
        ? { remove: true, reason: `force: ${why}; work archived, then removed`, archive: 'work', ...held }
        : { remove: true, reason: `force: ${why}; removed without archive`, ...held };
}
function summarizeWork(checks) {
    const found = [];
    const failed = [];
    const held = {};
    if (checks.operation) {
        found.push(checks.operation);
        held.operation = checks.operation;
    }
    if ('error' in checks.uncommitted)
        failed.push(checks.uncommitted.error);
    else if (checks.uncommitted.value > 0) {
        found.push(`${checks.uncommitted.value} uncommitted file(s)`);
        held.uncommitted = checks.uncommitted.value;
    }
    if ('error' in checks.unsaved)
        failed.push(checks.unsaved.error);
    else if (checks.unsaved.value) {
        found.push(describeUnsaved(checks.unsaved.value));
        held.unsaved = checks.unsaved.value;
    }
    if (found.length)
        return { state: 'work', detail: found.join(', '), held };
    if (failed.length)
        return { state: 'unknown', detail: [...new Set(failed)].join('; ') };
    return { state: 'clean' };
}

;// CONCATENATED MODULE: ./src/reap/archive.ts
// Saving what a removal would lose, into `archive-dir`, without running git on the host in the sandbox:
//  - work of a sandbox removed by `force: true`: run mode's capture helper makes a bundle of it in a
//    helper container (HEAD, its branch, and a snapshot commit of the uncommitted files as
//    `refs/worktree-sandbox/snapshot`), stopping at the commit the parent recorded for it; the bundle is
//    saved as it is. What the parent recorded and has not saved (src/sandbox/saved.ts: on no remote or
//    tag) goes with the records: a second bundle of it is made from the parent (host git, the parent only);
//  - an orphan (git can check nothing): all its files as a .tar.gz (links stored as links).
// Files are named `<archive-dir>/<project>/<sandbox>.<isolation>.<UTC time>.<ext>`.










/** Who the snapshot commit of uncommitted work is by. */
const ARCHIVIST = { name: 'worktree-sandbox reaper', email: 'worktree-sandbox@localhost' };
/** The cap on one archive, bundle or .tar.gz: what the reaper saves must not fill the runner's disk. */
const ARCHIVE_MAX_BYTES = 8 * 1024 ** 3;
/** Archives and returns the files written; throws when the work could not be saved (then nothing is removed). */
async function archiveSandbox(sandbox, kind, deps) {
    const dir = external_node_path_.join(deps.archiveDir, sandbox.project);
    await promises_.mkdir(dir, { recursive: true, mode: 0o700 });
    const stamp = deps.now
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
    const base = external_node_path_.join(dir, `${sandbox.sandbox}.${sandbox.isolation}.${stamp}`);
    if (kind === 'files')
        return [await archiveFiles(sandbox, base, deps)];
    const recorded = await archiveRecorded(sandbox, base, deps);
    return [await archiveWork(sandbox, base, deps), ...(recorded ? [recorded] : [])];
}
/**
 * The commits the parent recorded for the sandbox that it has not saved, as `<base>.recorded.bundle`
 * (undefined when there are none): removing the sandbox drops the record, the only ref some of them have.
 */
async function archiveRecorded(sandbox, base, deps) {
    const location = sandbox.location;
    if (!location)
        return undefined;
    const { parent } = location;
    const head = sandboxRefs(location).head;
    if (!(await deps.git.refExists(parent.path, head)))
        return undefined;
    const saved = await savedRefs(deps.git, parent.path);
    const count = await countUnsaved(deps.git, parent.path, [head], saved);
    if (count?.count === 0)
        return undefined;
    const file = `${base}.recorded.bundle`;
    await deps.git.run(parent.path, ['bundle', 'create', '--quiet', file, head, '--not', ...saved.revs]);
    await promises_.chmod(file, 0o600);
    return file;
}
async function archiveWork(sandbox, base, deps) {
    const location = sandbox.location;
    if (!location)
        throw new Error('its parent does not place it here: nothing to bundle against');
    const recorded = await deps.git.resolveCommit(location.parent.path, sandboxRefs(location).head);
    const captured = await captureSandbox(deps.engine, location, {
        image: await deps.image(),
        author: ARCHIVIST,
        committer: ARCHIVIST,
        exclude: recorded ? [recorded] : [],
        maxBytes: deps.maxBytes ?? ARCHIVE_MAX_BYTES,
        work: 'archive-capture',
    });
    try {
        const file = `${base}.bundle`;
        await promises_.copyFile(captured.bundle, file);
        await promises_.chmod(file, 0o600);
        return file;
    }
    finally {
        await promises_.rm(captured.dir, { recursive: true, force: true });
    }
}
async function archiveFiles(sandbox, base, deps) {
    const file = `${base}.tar.gz`;
    const maxBytes = deps.maxBytes ?? ARCHIVE_MAX_BYTES;
    try {
        if (sandbox.hostPath)
            await tarOnHost(sandbox.hostPath, file, maxBytes);
        else
            await tarInHelper(sandbox, file, maxBytes, deps);
        await promises_.chmod(file, 0o600);
        return file;
    }
    catch (error) {
        // Never a partial archive beside the real ones: the orphan is kept, and archived whole next time. A
        // file that was there already (the archive is created exclusively) is not ours to remove.
        if (error.code !== 'EEXIST')
            await promises_.rm(file, { force: true });
        throw error;
    }
}
/** More entries than this in an orphan's folder and it is not archived (kept, with that reason). */
const ARCHIVE_MAX_ENTRIES = 2_000_000;
/**
 * Why an orphan's folder cannot be archived within `maxBytes`, read with lstat alone (no link followed,
 * no file opened: a FIFO or a device cannot block the walk): a file whose apparent size is over the cap
 * (a sparse file of terabytes costs no room on disk but tar would read every zero), files that add up to
 * more, or more than `maxEntries` entries. Undefined when it fits. Names come from the sandbox: quoted.
 */
async function whyNotArchivable(top, maxBytes, maxEntries = ARCHIVE_MAX_ENTRIES) {
    const name = (p) => `"${sandboxText(external_node_path_.relative(top, p), 200)}"`;
    const pending = [top];
    let entries = 0;
    let total = 0;
    while (pending.length) {
        const dir = pending.pop();
        let current = dir;
        try {
            // opendir reads the listing a few entries at a time: a folder of millions costs no memory.
            for await (const entry of await promises_.opendir(dir)) {
                if (++entries > maxEntries)
                    return `it holds more than ${maxEntries} entries`;
                current = external_node_path_.join(dir, entry.name);
                const st = await promises_.lstat(current);
                if (st.isDirectory())
                    pending.push(current);
                else if (st.isFile()) {
                    if (st.size > maxBytes)
                        return `${name(current)} is ${st.size} bytes long (apparent size), more than the archive's cap of ${maxBytes} bytes`;
                    total += st.size;
                    if (total > maxBytes)
                        return `its files add up to more than the archive's cap of ${maxBytes} bytes`;
                }
            }
        }
        catch (error) {
            return `${name(current)} could not be read (${error.code ?? 'error'})`;
        }
    }
    return undefined;
}
/**
 * A disk orphan's folder as a .tar.gz, by GNU tar on the host: after whyNotArchivable, under a time limit
 * (its process group killed: tar's gzip too) and a byte cap on what it writes (it writes to a pipe; the
 * file stops at the cap). `--sparse` stores a sparse file's holes as holes. tar stores links as links and
 * FIFOs, sockets and devices as entries, never opening them. Its environment is ours (no TAR_OPTIONS).
 */
async function tarOnHost(folder, file, maxBytes) {
    const refused = await whyNotArchivable(folder, maxBytes);
    if (refused)
        throw new Error(refused);
    const limitMs = (0,time_limits/* timeLimitMs */.PI)('archive-files');
    const result = await (0,proc/* runStreaming */.SL)('tar', ['-C', external_node_path_.dirname(folder), '--sparse', '-czf', '-', '--', external_node_path_.basename(folder)], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
        stdoutFile: { path: file, maxBytes },
        timeLimitMs: limitMs,
    });
    if (result.timedOut)
        throw new time_limits/* TimeLimitError */.$q('archive-files', folder, limitMs, 'nothing was archived; the orphan is kept', true);
    if (result.overLimit)
        throw new Error(`its archive grew over the cap of ${maxBytes} bytes`);
    if (result.exitCode !== 0)
        throw new Error(`tar failed (exit ${result.exitCode}): ${tarSaid(result.stderrTail.slice(-1)[0] ?? '')}`);
}
/**
 * A volume orphan's files: the same check in the helper (`find`: a file larger than the cap refuses the
 * volume), then tar writes the archive to its standard output, which the host writes to the file up to
 * the cap; under the helper's time limit. $1: the cap in bytes.
 */
const TAR_VOLUME_SCRIPT = `set -eu
big=$(find /v -type f -size +"$1"c | head -n 1)
if [ -n "$big" ]; then echo "a file is larger than the archive's cap of $1 bytes (apparent size)" >&2; exit 3; fi
exec tar -C /v -czf - .
`;
async function tarInHelper(sandbox, file, maxBytes, deps) {
    const result = await deps.engine.runHelper({
        remove: true,
        image: await deps.image(),
        user: (0,container_args/* userArg */.Q6)(),
        labels: engine_labels/* HELPER_LABELS */.vJ,
        mounts: [{ type: 'volume', source: sandbox.volume, target: '/v', readonly: true }],
        entrypoint: 'sh',
        args: ['-c', TAR_VOLUME_SCRIPT, 'archive-volume', String(maxBytes)],
    }, {
        work: 'archive-volume',
        where: `volume ${sandbox.volume}`,
        consequence: 'nothing was archived; the orphan is kept',
        unmapped: true,
    }, { stdoutFile: { path: file, maxBytes } });
    if (result.overLimit)
        throw new Error(`its archive grew over the cap of ${maxBytes} bytes`);
    if (result.exitCode !== 0)
        throw new Error(`tar failed in the helper container (exit ${result.exitCode}): ${tarSaid(result.stderrTail.slice(-1)[0] ?? '')}`);
}
/** tar's first line of complaint: it names the sandbox's files, so it is escaped (lone `\r` included). */
function tarSaid(stderr) {
    return sandboxText(stderr.trim().split('\n')[0], 1_000);
}

;// CONCATENATED MODULE: ./src/reap/parallel.ts
// Bounded concurrency for the reaper's batches (checks, removals): enough calls in flight to keep a busy
// disk or the container engine working, few enough not to swamp a shared machine.
/** Maps with at most `limit` calls in flight, started in input order; results in input order. */
function inParallel(items, limit, fn) {
    const limited = limiter(Math.max(1, limit));
    return Promise.all(items.map((item) => limited(() => fn(item))));
}
/**
 * For calls that come one at a time (not as a list): each call to the returned function waits while
 * `limit` others are running; a call that ends hands its place to the longest waiting one.
 */
function limiter(limit) {
    let running = 0;
    const waiting = [];
    return async (fn) => {
        if (running < limit)
            running++;
        else
            await new Promise((resolve) => waiting.push(resolve));
        try {
            return await fn();
        }
        finally {
            const next = waiting.shift();
            if (next)
                next();
            else
                running--;
        }
    };
}

;// CONCATENATED MODULE: ./src/sandbox/sandbox-files.ts
// A sandbox's git folder read as data by the host: HEAD, every ref (loose and packed), the activity
// signals and the marks of an operation left half-done. A container wrote all of it, so nothing here
// runs git, follows a symbolic link or reads more than a bound: a file is opened with O_NOFOLLOW, checked
// to be a regular file, and read up to its limit. Anything unexpected is an error, which the checks
// turn into "keep".




// The readers of ref files are the sandbox layer's (run mode reads a parent's records with them too).

const HEAD_MAX = 1024;
const PACKED_REFS_MAX = 32 * 1024 * 1024;
/** More refs than this (a ref bomb) and the sandbox is kept without a closer look. */
const MAX_REFS = 20_000;
/** HEAD and every ref of a sandbox's git folder (`<work tree>/.git`), as data. */
function readSandboxGit(gitDir) {
    const read = readHeadAndRefs(gitDir);
    if ('error' in read)
        return { ok: false, error: read.error };
    const { head, refs, peeled } = read;
    let headOid;
    if ('oid' in head)
        headOid = head.oid;
    else {
        headOid = refs.get(head.ref);
        if (!headOid)
            return { ok: false, error: `HEAD names ${head.ref}, which does not exist` };
    }
    const named = new Set([headOid, ...refs.values(), ...peeled]);
    return { ok: true, headRef: 'ref' in head ? head.ref : undefined, headOid, named: [...named] };
}
/** HEAD, the loose refs under `refs/` and `packed-refs` of a git folder, as data (bounded, no links). */
function readHeadAndRefs(gitDir) {
    const top = lstat(gitDir);
    if (!top?.isDirectory())
        return { error: 'its git folder is not a folder' };
    const headFile = readBounded(external_node_path_.join(gitDir, 'HEAD'), HEAD_MAX);
    if ('error' in headFile)
        return { error: headFile.error };
    if ('absent' in headFile)
        return { error: 'it has no HEAD' };
    const head = parseHead(headFile.data.toString('utf8'));
    if ('error' in head)
        return { error: head.error };
    const loose = new Map();
    const walked = walkRefs(gitDir, loose);
    if (walked)
        return { error: walked };
    const packedFile = readBounded(external_node_path_.join(gitDir, 'packed-refs'), PACKED_REFS_MAX);
    if ('error' in packedFile)
        return { error: packedFile.error };
    let packed = new Map();
    const peeled = [];
    if ('data' in packedFile) {
        const parsed = parsePackedRefs(packedFile.data.toString('utf8'));
        if ('error' in parsed)
            return { error: parsed.error };
        packed = parsed.refs;
        peeled.push(...parsed.peeled);
    }
    if (loose.size + packed.size > MAX_REFS)
        return { error: `it has more than ${MAX_REFS} refs` };
    // The capture helper's own ref, left by a capture that was killed: the work it names is still in the
    // work tree (checked there), and counting it would keep the sandbox forever.
    loose.delete(SNAPSHOT_REF);
    packed.delete(SNAPSHOT_REF);
    return { head, refs: new Map([...packed, ...loose]), peeled };
}
/** Where a parent's refs always save what they reach (saved.ts ALWAYS_SAVING: `--remotes`, `--tags`). */
const SAVING_PREFIXES = ['refs/remotes/', 'refs/tags/'];
/**
 * The commits a parent's remote-tracking refs and tags name, read as data (readRefsUnder; a packed tag's
 * peeled commit too; a symbolic ref is left out, as it names another ref). Each is saved whatever the
 * parent's configuration says, so a sandbox that names nothing else needs no walk (parent-check.ts).
 * Undefined where the answer would not be sure.
 */
function readSavingTips(gitDir) {
    const read = readRefsUnder(gitDir, SAVING_PREFIXES, 'skip');
    return read && new Set([...read.refs.values(), ...read.peeled]);
}
/**
 * The names of a parent's records of its sandboxes (every ref under `refs/worktree-sandbox/`), read as
 * data as `git for-each-ref` lists them; undefined where the answer would not be sure (git lists them).
 */
function readRecordNames(gitDir) {
    const read = readRefsUnder(gitDir, [`${REF_ROOT}/`], 'unsure');
    return read && [...read.refs.keys()].sort();
}
/**
 * The refs of a repository under `prefixes` (each ending in `/`), read as data the way git's files backend
 * keeps them: a loose ref file over its line in `packed-refs`, and a packed ref's peeled line (`^<oid>`)
 * for the ref just above it. The repository is the host's own (a parent), but the answer is taken only
 * when it is sure: undefined for another ref storage (reftable), a git folder that shares another's refs
 * (`commondir`), a ref that is no plain file, more than MAX_REFS refs, a `packed-refs` that is malformed or
 * past PACKED_REFS_MAX, and a symbolic ref unless `symbolic` says to skip it.
 */
function readRefsUnder(gitDir, prefixes, symbolic) {
    try {
        return refsUnder(gitDir, prefixes, symbolic);
    }
    catch {
        return undefined; // a read that failed midway (EIO...): git answers
    }
}
function refsUnder(gitDir, prefixes, symbolic) {
    if (lstat(external_node_path_.join(gitDir, 'reftable')) || lstat(external_node_path_.join(gitDir, 'commondir')))
        return undefined;
    const refs = new Map();
    const looseNames = new Set();
    for (const prefix of prefixes)
        if (walkRefs(gitDir, refs, prefix.slice(0, -1), looseNames))
            return undefined;
    if (symbolic === 'unsure' && looseNames.size !== refs.size)
        return undefined;
    const peeled = [];
    const packedFile = readBounded(external_node_path_.join(gitDir, 'packed-refs'), PACKED_REFS_MAX);
    if ('error' in packedFile)
        return undefined;
    if ('absent' in packedFile)
        return { refs, peeled };
    const packed = parsePackedRefs(packedFile.data.toString('utf8'));
    if ('error' in packed || looseNames.size + packed.refs.size > MAX_REFS)
        return undefined;
    // A packed line counts only where no loose file of that name says otherwise.
    for (const [name, oid] of packed.refs) {
        if (looseNames.has(name) || !prefixes.some((prefix) => name.startsWith(prefix)))
            continue;
        refs.set(name, oid);
        const commit = packed.peeledOf.get(name);
        if (commit)
            peeled.push(commit);
    }
    return { refs, peeled };
}
/**
 * Loose refs under `top` (`refs/` unless said) into `found`, and the name of every loose ref file, symbolic
 * ones too, into `fileNames`; returns why they could not be read.
 */
function walkRefs(gitDir, found, top = 'refs', fileNames) {
    const pending = [top];
    let seen = 0;
    while (pending.length) {
        const rel = pending.pop();
        let names;
        try {
            names = external_node_fs_.readdirSync(external_node_path_.join(gitDir, rel), { withFileTypes: true });
        }
        catch (error) {
            const code = error.code;
            if (rel === top && code === 'ENOENT')
                return undefined;
            return `cannot list ${rel} (${code})`;
        }
        for (const dirent of names) {
            if (++seen > MAX_REFS)
                return `it has more than ${MAX_REFS} refs`;
            const name = `${rel}/${dirent.name}`;
            if (dirent.isDirectory()) {
                pending.push(name);
                continue;
            }
            if (!dirent.isFile())
                return `${name} is not a regular file (a symbolic link?)`;
            // git's own lock and temporary files are not refs.
            if (dirent.name.endsWith('.lock'))
                continue;
            const file = readBounded(external_node_path_.join(gitDir, name), LOOSE_REF_MAX);
            if ('error' in file)
                return file.error;
            if ('absent' in file)
                continue;
            const ref = parseLooseRef(file.data.toString('utf8'));
            if ('error' in ref)
                return `${name}: ${ref.error}`;
            fileNames?.add(name);
            if ('oid' in ref)
                found.set(name, ref.oid);
        }
    }
    return undefined;
}
/** Where activity shows in a sandbox's git folder (besides the work tree folder itself). */
const ACTIVITY_FILES = ['index', 'HEAD', 'logs/HEAD'];
/**
 * The mtimes of the work tree folder and of its git folder's index, HEAD and HEAD's reflog (lstat only).
 * The git folder is `<work tree>/.git`, or a linked worktree's registration in its parent.
 */
function diskActivity(worktree, gitDir = external_node_path_.join(worktree, '.git')) {
    const times = [lstat(worktree)?.mtimeMs];
    let suspicious;
    const shown = gitDir === external_node_path_.join(worktree, '.git') ? '.git' : 'its registration';
    for (const file of ACTIVITY_FILES) {
        const st = lstat(external_node_path_.join(gitDir, file));
        if (!st)
            continue;
        if (!st.isFile())
            suspicious ??= `${shown}/${file} is not a regular file (a symbolic link?)`;
        else
            times.push(st.mtimeMs);
    }
    return { times, suspicious };
}
/** Operations that leave work half-done in a git folder. */
const IN_PROGRESS = [
    ['MERGE_HEAD', 'a merge'],
    ['CHERRY_PICK_HEAD', 'a cherry-pick'],
    ['REVERT_HEAD', 'a revert'],
    ['rebase-merge', 'a rebase'],
    ['rebase-apply', 'a rebase or am'],
    ['sequencer', 'a sequence of picks'],
    ['BISECT_LOG', 'a bisect'],
];
const OPERATION_MARKS = IN_PROGRESS.map(([name]) => name);
function describeOperation(mark) {
    const what = IN_PROGRESS.find(([name]) => name === mark)?.[1];
    return what && `${what} is in progress`;
}
/** The operation in progress (merge, rebase...), from the marks it leaves in the git folder (lstat). */
function operationInProgress(gitDir) {
    for (const [name] of IN_PROGRESS)
        if (lstat(external_node_path_.join(gitDir, name)))
            return describeOperation(name);
    return undefined;
}
/** What lstat says of `p`; undefined where it is missing or cannot be read. */
function lstat(p) {
    try {
        return external_node_fs_.lstatSync(p, { throwIfNoEntry: false });
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/reap/remove-tree.ts
// Removing a disk sandbox safely:
//  - only a folder exactly at `<root>/<project>/<sandbox>`, itself no symbolic link, under the real root;
//  - symbolic links are removed as links, never followed (a link to `/` or to another sandbox removes the
//    link only); other filesystems mounted inside are not crossed;
//  - its `.git` folder is renamed first, in one step: from then on it is no longer a sandbox, and if that
//    fails nothing else is touched; after that, entries that cannot be deleted are reported and the rest
//    still goes (a folder of ours without write permission, as Go's module cache makes, is made writable
//    first). What is left of a partly removed sandbox is reported as not a sandbox from then on;
//  - its home `<root>/<project>/.home/<sandbox>` goes the same way.
// The walk that empties a folder (removeTree) judges every entry by its own lstat, never by the listing's
// file type: a link (or a folder swapped for a link after the listing) is unlinked as a link and never
// followed; the top folder's parent is never changed (no permission of it is touched).






class UnsafeRemovalError extends Error {
}
/**
 * The name a removal gives a sandbox's `.git` before the walk: unguessable by the sandbox (a random part
 * drawn once per process), unique per removal (a count).
 */
const renamed = { prefix: '', count: 0 };
function removedGitName() {
    renamed.prefix ||= (0,external_node_crypto_.randomBytes)(6).toString('hex');
    return `.git-removed-${renamed.prefix}-${++renamed.count}`;
}
/**
 * Refuses anything that is not a real folder exactly two levels under the real root. Real paths are the
 * system's realpath(3), the answer of Node's own walk in one call.
 */
function assertSandboxPath(root, target) {
    const realRoot = external_node_fs_.realpathSync.native(root);
    const relative = external_node_path_.relative(realRoot, target);
    const parts = relative.split(external_node_path_.sep);
    if (external_node_path_.isAbsolute(relative) || parts.length !== 2 || parts.some((p) => !p || p === '.' || p === '..'))
        throw new UnsafeRemovalError(`${target} is not a folder <root>/<project>/<sandbox> under ${realRoot}`);
    for (const dir of [external_node_path_.join(realRoot, parts[0]), target]) {
        const st = external_node_fs_.lstatSync(dir);
        if (!st.isDirectory())
            throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
    }
    if (external_node_fs_.realpathSync.native(target) !== target)
        throw new UnsafeRemovalError(`${target} is not a real path`);
}
async function removeSandboxTree(root, target) {
    assertSandboxPath(root, target);
    const result = { gone: false, unlinked: false, freedBytes: 0, problems: [] };
    const gitDir = external_node_path_.join(target, '.git');
    if (lstat(gitDir)) {
        try {
            await promises_.rename(gitDir, external_node_path_.join(target, removedGitName()));
        }
        catch (error) {
            result.problems.push({ path: gitDir, error: code(error) });
            return result;
        }
    }
    result.unlinked = true;
    add(result, await removeTree(target, external_node_fs_.lstatSync(target).dev));
    result.gone = !lstat(target);
    return result;
}
/** Removes `<root>/<project>/.home/<sandbox>` (real folders only, links never followed); problems are added. */
async function removeHomeFolder(root, home, result) {
    const realRoot = external_node_fs_.realpathSync.native(root);
    const parts = external_node_path_.relative(realRoot, home).split(external_node_path_.sep);
    if (parts.length !== 3 || parts[1] !== HOME_FOLDER || parts.some((p) => !p || p === '.' || p === '..'))
        throw new UnsafeRemovalError(`${home} is not a folder <root>/<project>/${HOME_FOLDER}/<sandbox> under ${realRoot}`);
    let st;
    for (const dir of [external_node_path_.join(realRoot, parts[0]), external_node_path_.join(realRoot, parts[0], parts[1]), home]) {
        st = lstat(dir);
        if (!st)
            return;
        if (!st.isDirectory())
            throw new UnsafeRemovalError(`${dir} is not a folder (a symbolic link is never followed)`);
    }
    add(result, await removeTree(home, st.dev));
}
/** Adds what a walk found to the removal's account. */
function add(result, walked) {
    result.freedBytes += walked.freedBytes;
    result.problems.push(...walked.problems);
}
function code(error) {
    return error.code ?? String(error);
}
/**
 * Bytes a folder takes on disk (allocated blocks), walked like removal: no links followed, one filesystem.
 * Undefined when any of it could not be read (a folder without search permission, a chain of folders
 * deeper than PATH_MAX): a size is for the report only, so a sandbox that cannot be measured is reported
 * unmeasured, never an error that stops the reap.
 */
function measureTree(top) {
    let total = 0;
    let device;
    try {
        const st = external_node_fs_.lstatSync(top);
        if (!st.isDirectory())
            return undefined;
        device = st.dev;
        total += st.blocks * 512;
    }
    catch {
        return undefined;
    }
    const pending = [top];
    try {
        while (pending.length) {
            const dir = pending.pop();
            for (const name of external_node_fs_.readdirSync(dir)) {
                const entry = external_node_path_.join(dir, name);
                const st = external_node_fs_.lstatSync(entry, { throwIfNoEntry: false });
                if (!st)
                    continue;
                total += st.blocks * 512;
                if (st.isDirectory() && st.dev === device)
                    pending.push(entry);
            }
        }
    }
    catch {
        return undefined;
    }
    return total;
}
/** Files of one folder deleted at once. */
const UNLINK_WINDOW = 64;
/**
 * Empties and removes `top` (a real folder on `device`, checked by the caller): a folder's files are
 * deleted together through libuv's thread pool (a window at a time), folders one after the other.
 */
async function removeTree(top, device) {
    const uid = process.getuid?.();
    const result = { freedBytes: 0, problems: [] };
    const code = (error) => error?.code ?? String(error);
    const unlink = (entry) => promises_.unlink(entry);
    const rmdir = (dir) => promises_.rmdir(dir);
    /** A folder we own but may not write or search: made ours to empty; true: try again. */
    function makeWritable(dir, error) {
        const c = code(error);
        if (c !== 'EACCES' && c !== 'EPERM')
            return false;
        try {
            const st = external_node_fs_.lstatSync(dir);
            if (!st.isDirectory() || st.uid !== uid)
                return false;
            if ((st.mode & 0o700) !== 0o700)
                external_node_fs_.chmodSync(dir, (st.mode & 0o7777) | 0o700);
            return true;
        }
        catch {
            return false;
        }
    }
    /** Calls `attempt`, once more after making `dir` writable when that is why it failed; the error code. */
    async function withRetry(dir, attempt, mayFix = true) {
        try {
            await attempt();
            return undefined;
        }
        catch (error) {
            if (code(error) === 'ENOENT')
                return undefined;
            if (!mayFix || !makeWritable(dir, error))
                return code(error);
        }
        try {
            await attempt();
            return undefined;
        }
        catch (again) {
            return code(again) === 'ENOENT' ? undefined : code(again);
        }
    }
    /** Empties and removes `dir`; true when anything below it could not be deleted. */
    async function removeFolder(dir, isTop) {
        let failedBelow = false;
        const fail = (entry, error) => {
            result.problems.push({ path: entry, error });
            failedBelow = true;
        };
        let names = [];
        const listed = await withRetry(dir, async () => {
            names = external_node_fs_.readdirSync(dir);
        });
        if (listed)
            fail(dir, listed);
        const folders = [];
        const others = [];
        for (const name of names) {
            const entry = external_node_path_.join(dir, name);
            const st = lstat(entry);
            if (!st)
                continue;
            if (!st.isDirectory())
                others.push({ entry, st });
            else if (st.dev !== device)
                fail(entry, 'another filesystem is mounted here: not crossed');
            else
                folders.push(entry);
        }
        const unlinkEntry = async ({ entry, st }) => {
            const problem = await withRetry(dir, () => unlink(entry));
            if (problem)
                fail(entry, problem);
            else if (st.nlink <= 1)
                result.freedBytes += st.blocks * 512;
        };
        // A window of a folder's files at a time, so that a huge folder queues a bounded number.
        for (let i = 0; i < others.length; i += UNLINK_WINDOW)
            await Promise.all(others.slice(i, i + UNLINK_WINDOW).map(unlinkEntry));
        for (const folder of folders)
            if (await removeFolder(folder, false))
                failedBelow = true;
        const st = lstat(dir);
        // The top folder's parent is not ours to make writable.
        const problem = await withRetry(external_node_path_.dirname(dir), () => rmdir(dir), !isTop);
        if (!problem)
            result.freedBytes += st ? st.blocks * 512 : 0;
        // A folder that still holds what could not be deleted is already explained by that entry.
        else if (!(failedBelow && problem === 'ENOTEMPTY'))
            fail(dir, problem);
        return failedBelow;
    }
    await removeFolder(top, true);
    return result;
}

;// CONCATENATED MODULE: ./src/reap/linked-worktree.ts
// Linked worktrees (the layout of `git worktree add`, and of the seed tool's worktree cache) as the
// reaper sees them: a folder whose `.git` is a file `gitdir: <parent>/.git/worktrees/<id>`, registered
// in that parent by the folder `<parent>/.git/worktrees/<id>`, whose `gitdir` file points back at the
// worktree's `.git`. The worktree and its registration (HEAD, index, logs, refs of its own) are written by
// whoever used the worktree: everything here reads them as data (bounded, never through a link, lstat
// only for times), and git never runs with them. git runs on the host in the parent only (its branches).







const GIT_FILE_MAX = 4096;
/** A registration's `gitdir` names one path. */
const GITDIR_MAX = 4096;
/** A worktree's `.git` file: one line `gitdir: <parent>/.git/worktrees/<id>`, an absolute, normal path. */
function parseGitFile(text) {
    const match = /^gitdir: ([^\n\r\0]+)\n?$/.exec(text);
    if (!match)
        return { error: 'its .git file is not one line `gitdir: <path>`' };
    const target = match[1];
    if (!external_node_path_.isAbsolute(target))
        return { error: 'its .git file names a relative path' };
    if (external_node_path_.normalize(target) !== target)
        return { error: 'its .git file names a path that is not in normal form' };
    const parts = /^(\/.*)\/\.git\/worktrees\/([^/]+)$/.exec(target);
    if (!parts || parts[2] === '.' || parts[2] === '..')
        return { error: "its .git file names no registration in a parent's .git/worktrees/" };
    return { parentPath: parts[1], adminDir: target, id: parts[2] };
}
/** The worktree's `.git` file, read as data. */
function readGitFile(worktree) {
    const file = readBounded(external_node_path_.join(worktree, '.git'), GIT_FILE_MAX);
    if ('error' in file)
        return { error: `its .git file: ${file.error}` };
    if ('absent' in file)
        return { error: 'its .git file is gone' };
    return parseGitFile(file.data.toString('utf8'));
}
/**
 * What every worktree of one parent shares, read once per parent in a scan: whether
 * `<parent>/.git/worktrees` is a folder, and the real path of `<parent>/.git`. A scan reads thousands of
 * worktrees of a few parents; removal checks each registration again byte for byte (`removeRegistrations`).
 */
class ParentFacts {
    lists = new Map();
    gitDirs = new Map();
    worktreesFolder(dir) {
        if (!this.lists.has(dir))
            this.lists.set(dir, lstat(dir));
        return this.lists.get(dir);
    }
    realGitDir(parentPath) {
        if (!this.gitDirs.has(parentPath))
            this.gitDirs.set(parentPath, realPath(external_node_path_.join(parentPath, '.git')));
        return this.gitDirs.get(parentPath);
    }
}
/**
 * Whether the parent registers this worktree: `<parent>/.git/worktrees/<id>` is a real folder (the real
 * path of `<parent>/.git` joined with `worktrees/<id>`), and its `gitdir` file names this worktree's `.git`
 * (real paths compared). `worktree`: a real path whose `.git` is a file, as the scan finds it; `parents`:
 * what the scan already read of the parent.
 */
function verifyRegistration(worktree, target, parents = new ParentFacts()) {
    const foreign = (why) => ({ state: 'foreign', why });
    const worktrees = external_node_path_.dirname(target.adminDir);
    const list = parents.worktreesFolder(worktrees);
    if (!list)
        return { state: 'missing', why: `${target.parentPath} registers no worktrees any more` };
    if (!list.isDirectory())
        return foreign(`${worktrees} is not a folder`);
    const admin = lstat(target.adminDir);
    if (!admin)
        return { state: 'missing', why: `its registration ${target.id} is gone from ${target.parentPath}` };
    if (!admin.isDirectory())
        return foreign(`its registration ${target.id} is not a folder`);
    const realGitDir = parents.realGitDir(target.parentPath);
    // Where `<parent>/.git` is a real path, so is its registration: `worktrees` and `<id>` are folders, not
    // links (lstat above). Only otherwise is the registration's own real path asked for.
    const realAdmin = realGitDir === external_node_path_.join(target.parentPath, '.git') ? target.adminDir : realPath(target.adminDir);
    if (!realAdmin || !realGitDir || realAdmin !== external_node_path_.join(realGitDir, 'worktrees', target.id))
        return foreign(`its registration ${target.id} is not a folder of ${target.parentPath}/.git/worktrees`);
    const file = readBounded(external_node_path_.join(target.adminDir, 'gitdir'), GITDIR_MAX);
    if (!('data' in file))
        return foreign(`its registration ${target.id} has no readable gitdir file`);
    const gitdirText = file.data.toString('utf8');
    const named = gitdirText.replace(/\n$/, '');
    if (!external_node_path_.isAbsolute(named) || /[\n\r\0]/.test(named))
        return foreign(`its registration ${target.id} names no absolute path`);
    // The worktree is a real path and its `.git` a file (the scan's lstat): naming it as it is needs no walk.
    const own = external_node_path_.join(worktree, '.git');
    const pointed = named === own ? own : realPath(named);
    if (pointed !== own)
        return foreign(`its registration ${target.id} in ${target.parentPath} belongs to another worktree`);
    return {
        state: 'registered',
        gitdirText,
        locked: lstat(external_node_path_.join(target.adminDir, 'locked')) !== undefined,
    };
}
/**
 * The system's realpath(3): the same answer as Node's own walk for a path that exists, in a fraction of its
 * time (the scan asks three of every linked worktree); a path it cannot resolve is no path of ours.
 */
function realPath(p) {
    try {
        return external_node_fs_.realpathSync.native(p);
    }
    catch {
        return undefined;
    }
}
/**
 * HEAD and the worktree's own refs (`refs/bisect`, `refs/worktree`...) from its registration, as data.
 * A HEAD that names a branch is resolved later, in the parent (`branchTips`): branches are the parent's.
 */
function readLinkedGit(adminDir) {
    const read = readHeadAndRefs(adminDir);
    if ('error' in read)
        return { ok: false, error: read.error };
    const { head, refs } = read;
    const own = [...refs.values()];
    if ('oid' in head)
        return { ok: true, headOid: head.oid, named: [...new Set([head.oid, ...own])] };
    const local = refs.get(head.ref);
    if (local)
        return { ok: true, headRef: head.ref, headOid: local, named: [...new Set(own)] };
    return { ok: true, headRef: head.ref, named: [...new Set(own)] };
}
/**
 * The commits these refs name in the parent (the host's own repository): read as data from its refs where
 * that answer is sure (sandbox-files.ts `readRefTips`, what git reads too), the rest in one git process.
 * The names come from worktrees' HEAD files: checked to be ref names (parseHead) and matched exactly.
 */
async function branchTips(git, parent, refs) {
    const tips = readRefTips(parent.gitDir, refs);
    const asked = refs.filter((ref) => !tips.has(ref));
    if (asked.length === 0)
        return tips;
    const out = await git.exec(parent.path, [
        'for-each-ref',
        '--format=%(objectname) %(refname)',
        '--',
        ...asked,
    ]);
    if (out.exitCode !== 0)
        return { error: `git for-each-ref failed in the parent: ${out.stderr.trim().split('\n')[0]}` };
    const wanted = new Set(asked);
    for (const line of out.stdout.split('\n')) {
        const space = line.indexOf(' ');
        const oid = line.slice(0, space);
        const name = line.slice(space + 1);
        if (space > 0 && OID.test(oid) && wanted.has(name))
            tips.set(name, oid);
    }
    return tips;
}
// Removing linked worktrees' registrations in their parent (`<parent>/.git/worktrees/<id>`), once their
// folders are gone: as data, with the removal's own walk (no link followed), and only those registrations.
// Not `git worktree prune`, which would judge and drop every other registration of the parent (those of
// worktrees it cannot see from here, too), and would read files that whoever used the worktree wrote.
/** Registrations walked at once. */
const REGISTRATIONS_AT_ONCE = 4;
/**
 * The registrations of removed linked worktrees, a parent at a time, under its repository lock (taken
 * once for its batch): in order, why each was left (undefined: it is gone). A parent whose lock cannot be
 * had keeps its registrations, and the other parents' go on.
 */
async function forgetRegistrations(items) {
    const left = items.map(() => undefined);
    const byParent = new Map();
    items.forEach(({ parent }, n) => {
        const group = byParent.get(parent.gitDir);
        if (group)
            group.push(n);
        else
            byParent.set(parent.gitDir, [n]);
    });
    for (const [gitDir, group] of byParent) {
        try {
            const problems = await withRepositoryLock(gitDir, () => removeRegistrations(gitDir, group.map((n) => items[n].linked)));
            group.forEach((n, i) => {
                const problem = problems[i];
                if (problem)
                    left[n] = { reason: problem.error, problem };
            });
        }
        catch (error) {
            for (const n of group)
                left[n] = { reason: `the parent's lock could not be taken (${error.message})` };
        }
    }
    return left;
}
/**
 * Removes the registrations of a batch of removed linked worktrees of one parent (`parentGitDir`), the
 * caller holding the parent's repository lock (taken once for the batch). Each goes only when it is still a
 * real folder whose `gitdir` file reads as the scan read it (it named its worktree then); several are
 * walked at once (each is a handful of small files, and every unlink waits for the disk).
 * Returns, in order, what was left of each and why (undefined: it is gone); one that cannot go leaves the
 * others going.
 */
async function removeRegistrations(parentGitDir, batch, walk = removeTree) {
    const worktrees = external_node_path_.join(parentGitDir, 'worktrees');
    // One walk per registration: a registration named twice (the scan verifies that it points back at one
    // worktree only, so this is never expected) is walked once, and both are told what became of it.
    const walks = new Map();
    const removeOnce = (linked) => {
        const known = walks.get(linked.id);
        if (known)
            return known;
        const removal = removeChecked(worktrees, linked, walk);
        walks.set(linked.id, removal);
        return removal;
    };
    const problems = await inParallel(batch, REGISTRATIONS_AT_ONCE, removeOnce);
    // As git does when it prunes the last registration: the empty folder goes too, once one of ours went
    // (rmdir removes only an empty folder, never a link: others' registrations are never touched).
    if (problems.some((problem) => !problem) && lstat(worktrees)?.isDirectory())
        try {
            external_node_fs_.rmdirSync(worktrees);
        }
        catch {
            /* other registrations are left */
        }
    return problems;
}
/** One registration, checked under the parent's lock just before its walk (see removeRegistrations). */
async function removeChecked(worktrees, linked, walk) {
    const admin = external_node_path_.join(worktrees, linked.id);
    const left = (error) => ({ path: admin, error });
    if (!linked.registered || linked.id.includes('/') || linked.id === '.' || linked.id === '..')
        return left('not a verified registration');
    if (!lstat(worktrees)?.isDirectory())
        return left('.git/worktrees is not a folder');
    const st = lstat(admin);
    if (!st)
        return undefined; // gone already (a person or git pruned it)
    if (!st.isDirectory())
        return left('it is not a folder (a symbolic link is never followed)');
    const gitdir = readBounded(external_node_path_.join(admin, 'gitdir'), GITDIR_MAX);
    if (!('data' in gitdir) || gitdir.data.toString('utf8') !== linked.registered.gitdirText)
        return left('it changed since the scan');
    const walked = await walk(admin, st.dev);
    return walked.problems[0];
}

;// CONCATENATED MODULE: external "node:timers/promises"
const external_node_timers_promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:timers/promises");
// EXTERNAL MODULE: ./src/engine/inventory.ts
var inventory = __nccwpck_require__(3190);
;// CONCATENATED MODULE: ./src/engine/helper-frames.ts
/**
 * The records, read one after the other by their lengths. Reading stops at the first byte that is not
 * a well-formed header of this run: what follows is never taken for a record.
 */
function parseFrames(stdout, token) {
    const frames = [];
    const header = new RegExp(`^${token} ([0-9]+|end) ([a-zA-Z-]+) ([0-9]{1,9})$`);
    let at = 0;
    while (at < stdout.length) {
        const nl = stdout.indexOf(0x0a, at);
        if (nl < 0 || nl - at > 200)
            break;
        const match = header.exec(stdout.toString('latin1', at, nl));
        if (!match)
            break;
        const length = Number(match[3]);
        const start = nl + 1;
        if (start + length + 1 > stdout.length || stdout[start + length] !== 0x0a)
            break;
        frames.push({ index: match[1], key: match[2], value: stdout.subarray(start, start + length) });
        at = start + length + 1;
    }
    return frames;
}

;// CONCATENATED MODULE: ./src/reap/inspection-script.ts
// What a helper container runs to look into sandboxes, and what its answer means: the requests, the
// shell script (its records framed by engine/helper-frames.ts), and the reading of each sandbox's records
// into data. helper-inspection.ts runs the helpers.
//
// git in the helper never reads a sandbox's own configuration, hooks or attributes drivers: each
// sandbox is looked at through a clean git folder made inside the helper (a copy of its HEAD, refs and
// excludes; its own object store and index named by GIT_OBJECT_DIRECTORY and GIT_INDEX_FILE). So a
// hostile sandbox cannot run code in the helper, where it could lie about another sandbox of the batch.



const SANDBOXES_PER_HELPER = 48;
/**
 * What one sandbox may write: its refs (at most MAX_REFS object names, which the script checks itself)
 * and a few short records. The helper's budget is this times its sandboxes, so one sandbox never spends
 * another's share; a sandbox that writes more than its own share gets no verdict.
 */
const OUTPUT_PER_SANDBOX = MAX_REFS * 41 + 256 * 1024;
const SIGNAL_KEYS = {
    'sig-wt': 'worktree',
    'sig-gitdir': 'gitDir',
    'sig-index': 'index',
    'sig-HEAD': 'HEAD',
    'sig-logs-HEAD': 'logs/HEAD',
};
// Positional arguments: the token, the parent's object stores (`:`-joined), then sextuples: index,
// what to do (letters s: signals, w: work, d: du), the folder to measure, the work tree, its git folder,
// and the commit HEAD names or \`-\` (a linked worktree: its registration is its git folder, HEAD is given
// as a commit, its objects are the parent's).
const INSPECT_SCRIPT = `set -u
token="$1"; alts="$2"; shift 2
tmp=$(mktemp -d)
rec() {
  n=$(wc -c < "$3" | tr -d ' ')
  printf '%s %s %s %s\\n' "$token" "$1" "$2" "$n"
  cat -- "$3"
  printf '\\n'
}
val() { printf '%s' "$3" > "$tmp/v"; rec "$1" "$2" "$tmp/v"; }
sig() {
  if [ -L "$3" ]; then v=l
  elif [ -f "$3" ]; then v="f $(stat -c %.9Y -- "$3" 2>/dev/null)"
  elif [ -d "$3" ]; then v="d $(stat -c %.9Y -- "$3" 2>/dev/null)"
  elif [ -e "$3" ]; then v=o
  else v=n; fi
  val "$1" "sig-$2" "$v"
}
signals() {
  i="$1"; wt="$2"; gd="$2/.git"
  sig "$i" wt "$wt"; sig "$i" gitdir "$gd"
  sig "$i" index "$gd/index"; sig "$i" HEAD "$gd/HEAD"; sig "$i" logs-HEAD "$gd/logs/HEAD"
  if [ -f "$gd/HEAD" ] && [ ! -L "$gd/HEAD" ] && [ ! -L "$gd" ]; then
    head -c 1024 -- "$gd/HEAD" > "$tmp/v" 2>/dev/null && rec "$i" head-file "$tmp/v"
  fi
}
work() {
  i="$1"; wt="$2"; gd="$3"; hd="$4"; g="$tmp/g$i"; od="$gd/objects"
  if [ -L "$wt" ] || [ ! -d "$wt" ] || [ -L "$gd" ] || [ ! -d "$gd" ]; then val "$i" work-error "its work tree or .git folder is missing"; return; fi
  if [ "$(find "$gd/refs" 2>/dev/null | head -n ${MAX_REFS + 2} | wc -l)" -gt ${MAX_REFS + 1} ]; then val "$i" work-error "it has more than ${MAX_REFS} refs"; return; fi
  if [ -f "$gd/packed-refs" ] && [ "$(head -c ${PACKED_REFS_MAX + 1} -- "$gd/packed-refs" | wc -c | tr -d ' ')" -gt ${PACKED_REFS_MAX} ]; then val "$i" work-error "its packed-refs is larger than ${PACKED_REFS_MAX} bytes"; return; fi
  mkdir -p "$g/refs" "$g/info" "$g/objects"
  for f in HEAD packed-refs info/exclude; do
    if [ -f "$gd/$f" ] && [ ! -L "$gd/$f" ]; then cp -- "$gd/$f" "$g/$f"; fi
  done
  if [ -d "$gd/refs" ] && [ ! -L "$gd/refs" ]; then cp -RP -- "$gd/refs/." "$g/refs/"; fi
  rm -f -- "$g/${SNAPSHOT_REF}"
  if [ "$hd" != - ]; then printf '%s\\n' "$hd" > "$g/HEAD"; od="\${alts%%:*}"; fi
  for m in ${OPERATION_MARKS.join(' ')}; do
    if [ -e "$gd/$m" ] || [ -L "$gd/$m" ]; then val "$i" operation "$m"; fi
  done
  (
    export GIT_DIR="$g" GIT_WORK_TREE="$wt" GIT_INDEX_FILE="$gd/index" GIT_OBJECT_DIRECTORY="$od" GIT_ALTERNATE_OBJECT_DIRECTORIES="$alts"
    git rev-parse --verify --quiet HEAD > "$tmp/head" 2>/dev/null || : > "$tmp/head"
    git for-each-ref --format='%(objectname)' > "$tmp/refs" 2>/dev/null; echo $? > "$tmp/refs-rc"
    if [ "$(wc -l < "$tmp/refs" | tr -d ' ')" -gt ${MAX_REFS} ]; then exit 3; fi
    git status --porcelain=v1 -z --untracked-files=all --no-renames --ignore-submodules=dirty > "$tmp/status" 2>/dev/null; echo $? > "$tmp/status-rc"
  )
  if [ $? -eq 3 ]; then val "$i" work-error "it has more than ${MAX_REFS} refs"; rm -rf -- "$g" "$tmp/refs"; return; fi
  rec "$i" head "$tmp/head"
  rec "$i" refs-rc "$tmp/refs-rc"
  rec "$i" refs "$tmp/refs"
  rec "$i" status-rc "$tmp/status-rc"
  val "$i" status-count "$(tr -cd '\\000' < "$tmp/status" | wc -c | tr -d ' ')"
  rm -rf -- "$g" "$tmp/status"
}
while [ $# -ge 6 ]; do
  i="$1"; what="$2"; top="$3"; wt="$4"; gd="$5"; hd="$6"; shift 6
  val "$i" begin ok
  case "$what" in *s*) signals "$i" "$wt" ;; esac
  case "$what" in *w*) work "$i" "$wt" "$gd" "$hd" ;; esac
  case "$what" in *d*) val "$i" size "$(du -sk -- "$top" 2>/dev/null | cut -f1)" ;; esac
  val "$i" done ok
done
val end end end
`;
/** Each request's records, checked; a sandbox without its `done` record is a failed check. */
function readInspections(frames, chunk, failure) {
    const byIndex = new Map();
    for (const frame of frames)
        byIndex.set(frame.index, [...(byIndex.get(frame.index) ?? []), frame]);
    const results = new Map();
    chunk.forEach((request, n) => {
        const records = byIndex.get(String(n)) ?? [];
        const text = (key) => records.find((r) => r.key === key)?.value.toString('utf8');
        if (text('done') !== 'ok') {
            results.set(request.key, { error: failure });
            return;
        }
        if (records.reduce((sum, r) => sum + r.value.length, 0) > OUTPUT_PER_SANDBOX) {
            results.set(request.key, { error: `the helper wrote more than ${OUTPUT_PER_SANDBOX} bytes for it` });
            return;
        }
        const inspection = {};
        if (request.signals)
            inspection.signals = readSignals(records, text);
        if (request.work)
            inspection.work = readWork(records, text);
        if (request.size) {
            const kb = text('size')?.trim() ?? '';
            if (/^[0-9]+$/.test(kb))
                inspection.sizeBytes = Number(kb) * 1024;
        }
        results.set(request.key, inspection);
    });
    return results;
}
function readSignals(records, text) {
    const report = {
        worktree: { type: 'none' },
        gitDir: { type: 'none' },
        files: { index: { type: 'none' }, HEAD: { type: 'none' }, 'logs/HEAD': { type: 'none' } },
    };
    for (const record of records) {
        const slot = SIGNAL_KEYS[record.key];
        if (!slot)
            continue;
        const signal = parseSignal(record.value.toString('latin1'));
        if (slot === 'worktree' || slot === 'gitDir')
            report[slot] = signal;
        else
            report.files[slot] = signal;
    }
    const headFile = text('head-file');
    if (headFile !== undefined)
        report.head = parseHead(headFile);
    return report;
}
function parseSignal(value) {
    const match = /^([fd]) ([0-9]{1,12})(?:\.([0-9]{1,9}))?$/.exec(value);
    if (match) {
        const ms = Number(match[2]) * 1000 + Math.floor(Number((match[3] ?? '0').padEnd(9, '0')) / 1e6);
        return { type: match[1] === 'f' ? 'file' : 'dir', mtimeMs: ms };
    }
    if (value === 'l')
        return { type: 'link' };
    if (value === 'n')
        return { type: 'none' };
    return { type: 'other' };
}
function readWork(records, text) {
    const error = text('work-error');
    if (error !== undefined)
        return { error: `the helper says: ${error}` };
    const head = text('head')?.trim() ?? '';
    const refsRc = text('refs-rc')?.trim();
    const refs = (text('refs') ?? '').split('\n').filter(Boolean);
    if (refsRc !== '0' || refs.some((r) => !OID.test(r)))
        return { error: 'its refs could not be read' };
    if (!OID.test(head))
        return { error: 'its HEAD names no commit' };
    const operation = records
        .filter((r) => r.key === 'operation')
        .map((r) => describeOperation(r.value.toString('utf8')))
        .find((d) => d !== undefined);
    const statusRc = text('status-rc')?.trim();
    const count = text('status-count')?.trim() ?? '';
    const uncommitted = statusRc === '0' && /^[0-9]+$/.test(count)
        ? { value: Number(count) }
        : { error: `git status failed in the helper (exit ${statusRc ?? '?'})` };
    return { headOid: head, named: [...new Set([head, ...refs])], operation, uncommitted };
}

;// CONCATENATED MODULE: ./src/reap/helper-inspection.ts
// What the host does not read itself, a helper container reads: the activity signals of volume
// sandboxes, the size of a volume, and the check for work where git must look (every volume, and disk
// sandboxes the filesystem could not prove clean). One helper looks at up to SANDBOXES_PER_HELPER
// sandboxes of one parent, all mounted read-only with the parent's object stores; what it runs and how
// its answer reads are inspection-script.ts's.













/**
 * Each request's inspection, in helpers of SANDBOXES_PER_HELPER sandboxes. The helper image is asked for
 * only here, when there is something to inspect; when it cannot be made, every request fails with the
 * reason (each sandbox is then kept as unknown by its caller), and nothing else is affected.
 */
async function inspectInHelpers(engine, helperImage, parent, requests) {
    const results = new Map();
    if (!requests.length)
        return results;
    let image;
    try {
        image = await helperImage();
    }
    catch (error) {
        const failed = { error: `the helper image could not be made: ${error.message}` };
        return new Map(requests.map((r) => [r.key, failed]));
    }
    for (let i = 0; i < requests.length; i += SANDBOXES_PER_HELPER) {
        const chunk = requests.slice(i, i + SANDBOXES_PER_HELPER);
        const run = (part) => inspectChunkOnce(engine, image, parent, part);
        for (const [key, inspection] of await inspectIsolating(chunk, run))
            results.set(key, inspection);
    }
    return results;
}
/**
 * A batch in one helper; when the helper fails part of the way, the sandbox it was at keeps its error
 * and the ones it never reached go to a new helper, so one sandbox (too much output, a hang, a crash)
 * never takes the others' verdicts with it. A helper that failed before it began any sandbox says
 * nothing about which one was to blame: the batch is halved until each part gets through or is one
 * sandbox alone.
 */
async function inspectIsolating(chunk, run) {
    const results = new Map();
    let pending = [...chunk];
    while (pending.length) {
        const { found, began } = await run(pending);
        const failed = pending.filter((r) => found.get(r.key)?.error !== undefined);
        for (const r of pending)
            if (!failed.includes(r))
                results.set(r.key, found.get(r.key));
        if (!failed.length)
            break;
        // The helper works in order: the first that failed is the one it was at, the rest it never reached
        // (or, done, wrote more than their share: they fail again alone).
        const [offender, ...rest] = failed;
        if (began.has(offender.key) || failed.length === 1) {
            results.set(offender.key, found.get(offender.key));
            pending = rest;
            continue;
        }
        const half = Math.ceil(failed.length / 2);
        for (const part of [failed.slice(0, half), failed.slice(half)])
            for (const [key, inspection] of await inspectIsolating(part, run))
                results.set(key, inspection);
        break;
    }
    return results;
}
/** One helper for `chunk`; a helper that could not even be started fails every request in it. */
async function inspectChunkOnce(engine, image, parent, chunk) {
    try {
        return await inspectChunk(engine, image, parent, chunk);
    }
    catch (error) {
        const failed = { error: `the helper container failed: ${error.message}` };
        return { found: new Map(chunk.map((r) => [r.key, failed])), began: new Set() };
    }
}
async function inspectChunk(engine, image, parent, chunk) {
    const token = (0,external_node_crypto_.randomBytes)(16).toString('hex');
    const mounts = parent ? objectStoreMounts(parent) : [];
    const args = [];
    chunk.forEach((request, n) => {
        const what = `${request.signals ? 's' : ''}${request.work ? 'w' : ''}${request.size ? 'd' : ''}`;
        if ('volume' in request.target) {
            const top = `/v/${n}`;
            mounts.push({ type: 'volume', source: request.target.volume, target: top, readonly: true });
            const wt = `${top}/${request.target.name}`;
            args.push(String(n), what, top, wt, `${wt}/.git`, '-');
        }
        else {
            const dir = request.target.hostPath;
            mounts.push({ type: 'bind', source: dir, target: dir, readonly: true });
            if ('gitDir' in request.target) {
                const { gitDir, headOid } = request.target;
                mounts.push({ type: 'bind', source: gitDir, target: gitDir, readonly: true });
                args.push(String(n), what, dir, dir, gitDir, OID.test(headOid) ? headOid : '-');
            }
            else
                args.push(String(n), what, dir, dir, `${dir}/.git`, '-');
        }
    });
    const dir = await promises_.mkdtemp(external_node_path_.join(external_node_os_.tmpdir(), 'worktree-sandbox-inspect-'));
    const out = external_node_path_.join(dir, 'out');
    try {
        let failure;
        try {
            const result = await engine.runHelper({
                remove: true,
                image,
                user: (0,container_args/* userArg */.Q6)(),
                mounts,
                labels: engine_labels/* HELPER_LABELS */.vJ,
                // The files belong to whoever ran the sandbox: git's ownership check would refuse them.
                env: { ...helperGitEnv(), ...gitConfigEnv([['safe.directory', '*']]) },
                workdir: '/',
                entrypoint: 'sh',
                args: [
                    '-c',
                    INSPECT_SCRIPT,
                    'worktree-sandbox-inspect',
                    token,
                    (parent?.objectStores ?? []).join(':'),
                    ...args,
                ],
            }, {
                work: 'inspect',
                where: `${chunk.length} sandbox(es)${parent ? ` of ${parent.path}` : ''}`,
                consequence: 'the sandboxes it had not finished with are kept',
                unmapped: true,
            }, { stdoutFile: { path: out, maxBytes: OUTPUT_PER_SANDBOX * chunk.length } });
            failure = result.overLimit
                ? `the helper container wrote more than ${OUTPUT_PER_SANDBOX} bytes for it`
                : `the helper container stopped (exit ${result.exitCode}): ${sandboxText(result.stderrTail.slice(-1)[0] ?? '', 500)}`.trim();
        }
        catch (error) {
            // Out of time: what it said about the sandboxes it finished with still counts.
            if (!(error instanceof time_limits/* TimeLimitError */.$q))
                throw error;
            failure = error.message;
        }
        const stdout = await promises_.readFile(out);
        const frames = parseFrames(stdout, token);
        const began = new Set(frames.filter((f) => f.key === 'begin').map((f) => chunk[Number(f.index)]?.key));
        return { found: readInspections(frames, chunk, failure), began };
    }
    finally {
        await promises_.rm(dir, { recursive: true, force: true });
    }
}

;// CONCATENATED MODULE: ./src/reap/scan-parents.ts








function registration(owner, isolation, name, project, locate, where) {
    if (owner.problem || !owner.parent)
        return { parentPath: owner.parentPath, orphan: owner.problem ?? 'no parent repository' };
    const { parent } = owner;
    const facts = { parentPath: parent.path, parent };
    if (projectName(parent.path) !== project)
        return { ...facts, unregistered: `${parent.path} is not the parent of project ${project}` };
    const location = locate(parent);
    const at = location.isolation === 'disk' ? location.hostPath : location.volume;
    if (at !== where)
        return { ...facts, unregistered: `${parent.path} places it at ${at}` };
    if (owner.recordsError)
        return { ...facts, location, unregistered: owner.recordsError };
    const recorded = owner.records.get(`${isolation === 'disk' ? 'disk' : 'volume'}/${name}`);
    if (!recorded)
        return { ...facts, location, unregistered: `${parent.path} holds no record of it` };
    return { ...facts, recorded, location };
}
function plan(name) {
    return { sandbox: name, kind: classifyName(name), branch: '' };
}
/** Parents whose records are read at once (one git process each). */
const PARENTS_IN_FLIGHT = 8;
/**
 * Each parent is looked at once (one git process for its records), however many sandboxes it has; several
 * parents at a time.
 */
class ParentCache {
    git;
    owners = new Map();
    linkedOwners = new Map();
    limited = limiter(PARENTS_IN_FLIGHT);
    /** What the linked worktrees of one parent share (linked-worktree.ts), read once per parent. */
    linkedFacts = new ParentFacts();
    constructor(git) {
        this.git = git;
    }
    /** The parent a project folder's note names; verified: its project name is the folder's name. */
    async ownerOfProject(projectDir, project) {
        const note = readBounded(external_node_path_.join(projectDir, PARENT_NOTE), 4096);
        if (!('data' in note))
            return {
                problem: `its project folder has no readable note of its parent (${'error' in note ? note.error : 'none'})`,
            };
        const parentPath = note.data.toString('utf8').trim();
        if (!external_node_path_.isAbsolute(parentPath) || parentPath.includes('\n'))
            return { problem: 'its project folder has no readable note of its parent (malformed)' };
        return this.ownerOf(parentPath, project);
    }
    ownerOf(parentPath, project) {
        if (projectName(parentPath) !== project)
            return Promise.resolve({
                parentPath,
                problem: `its parent ${parentPath} is not the parent of project ${project}`,
            });
        let owner = this.owners.get(parentPath);
        if (!owner) {
            // A parent that cannot be read keeps its sandboxes (unregistered: never taken for orphans), and the
            // scan of every other parent goes on.
            owner = this.limited(() => this.look(parentPath)).catch((error) => ({
                parentPath,
                parent: { path: parentPath, gitDir: external_node_path_.join(parentPath, '.git'), objectStores: [] },
                recordsError: `the records of ${parentPath} could not be read: ${JSON.stringify(error.message)}`,
            }));
            this.owners.set(parentPath, owner);
        }
        return owner;
    }
    /**
     * The parent a linked worktree's `.git` file names: there, and its object stores (for the helpers). No
     * git process: a linked worktree's registration is read as data (linked-worktree.ts).
     */
    linkedParent(parentPath) {
        let owner = this.linkedOwners.get(parentPath);
        if (!owner) {
            owner = this.limited(async () => {
                const problem = parentStatus(parentPath, external_node_path_.join(parentPath, '.git'));
                if (problem)
                    return { parentPath, problem };
                // Real paths: what the helpers mount, and what the worktree's registration is compared with.
                const real = external_node_fs_.realpathSync(parentPath);
                const gitDir = external_node_path_.join(real, '.git');
                const objects = await objectStores(external_node_path_.join(gitDir, 'objects'));
                return { parentPath: real, parent: { path: real, gitDir, objectStores: objects } };
            });
            this.linkedOwners.set(parentPath, owner);
        }
        return owner;
    }
    async look(parentPath) {
        const gitDir = external_node_path_.join(parentPath, '.git');
        const status = parentStatus(parentPath, gitDir);
        if (status)
            return { parentPath, problem: status };
        const parent = {
            path: parentPath,
            gitDir,
            objectStores: await objectStores(external_node_path_.join(gitDir, 'objects')),
        };
        // Read as data where that is sure (sandbox-files.ts readRecordNames), else git lists them.
        let names = readRecordNames(gitDir);
        if (!names) {
            const out = await this.git.exec(parentPath, [
                'for-each-ref',
                '--format=%(refname)',
                '--',
                `${REF_ROOT}/`,
            ]);
            if (out.exitCode !== 0)
                return {
                    parentPath,
                    parent,
                    recordsError: `the records of ${parentPath} could not be read: ${out.stderr.trim().split('\n')[0]}`,
                };
            names = out.stdout.split('\n');
        }
        const records = new Map();
        for (const line of names) {
            const match = /^refs\/worktree-sandbox\/(disk|volume)\/(.+)\/(head|creating)$/.exec(line);
            if (!match)
                continue;
            const key = `${match[1]}/${nameFromComponent(match[2])}`;
            if (match[3] === 'head' || !records.has(key))
                records.set(key, match[3]);
        }
        return { parentPath, parent, records };
    }
}
/** Undefined when the parent is there; else why not. */
function parentStatus(parentPath, gitDir) {
    try {
        if (!external_node_fs_.lstatSync(gitDir).isDirectory())
            return `its parent repository ${parentPath} has no .git folder`;
        external_node_fs_.accessSync(gitDir, external_node_fs_.constants.R_OK | external_node_fs_.constants.X_OK);
        external_node_fs_.accessSync(external_node_path_.join(gitDir, 'HEAD'), external_node_fs_.constants.R_OK);
        external_node_fs_.accessSync(external_node_path_.join(gitDir, 'objects'), external_node_fs_.constants.R_OK | external_node_fs_.constants.X_OK);
        return undefined;
    }
    catch (error) {
        const code = error.code;
        if (code === 'ENOENT' || code === 'ENOTDIR')
            return `its parent repository ${parentPath} is gone`;
        return `its parent repository ${parentPath} is unreadable (${code})`;
    }
}

;// CONCATENATED MODULE: ./src/reap/scan.ts
// Finding every sandbox on the machine, with the facts the decisions need:
//  - disk sandboxes are the folders `<root>/<project>/<name>` that hold a `.git` folder, in a project
//    folder whose `.parent` note names a parent repository whose project name is that folder's name;
//  - linked worktrees are the folders `<root>/<project>/<name>` whose `.git` is a file naming a parent's
//    `.git/worktrees/<id>` (the layout of `git worktree add` and of the seed tool's worktree cache), that
//    the parent registers pointing back (linked-worktree.ts: read as data, no git process);
//  - volume sandboxes are the volumes labelled `worktree-sandbox.managed=true` whose name is
//    `<volume-prefix>-<project>-<name>` (the prefix scopes a reaper: other tenants' volumes are not even
//    looked at), whose labels name their parent;
//  - a sandbox of a live parent is registered when the parent holds its records
//    (`refs/worktree-sandbox/...`); one without is reported and kept.
// Entries starting with `.` under a project folder are ours (homes, the note); anything else that is
// not a sandbox is reported, and never deleted.
//
// Activity is read with lstat only: on the host for disk sandboxes (a linked worktree's in its registration,
// once verified), by one helper container per SANDBOXES_PER_HELPER volumes for volume sandboxes. The host
// reads nothing else in a sandbox here, but a linked worktree's `.git` file and its registration's
// `gitdir` (bounded, never through a link).













const SANDBOX_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
async function scanSandboxes(options) {
    const parents = new ParentCache(options.git);
    const root = realRootOrSelf(options.worktreeRoot);
    // Folders and volumes are looked at together: the engine is asked first, the folders listed while it
    // answers (its answer takes as long as reading a few parents' records).
    const diskWarnings = [];
    const volumeWarnings = [];
    const volumes = options.engine
        ? scanVolumes(options, parents, volumeWarnings).catch((error) => {
            volumeWarnings.push(`Volume sandboxes were not scanned: ${error.message}`);
            return [];
        })
        : [];
    const disk = await scanDisk(root, parents, diskWarnings);
    return {
        sandboxes: [...disk, ...(await volumes)],
        warnings: [...diskWarnings, ...volumeWarnings],
        root,
    };
}
function realRootOrSelf(root) {
    try {
        return external_node_fs_.realpathSync(root);
    }
    catch {
        return external_node_path_.resolve(root);
    }
}
// ---- disk ---------------------------------------------------------------------------------------------
async function scanDisk(root, parents, warnings) {
    // In the order found; a sandbox waits for its parent's records, which are read for several parents at once.
    const found = [];
    const listed = (dir) => {
        try {
            return external_node_fs_.readdirSync(dir, { withFileTypes: true });
        }
        catch (error) {
            const code = error.code;
            if (dir !== root || code !== 'ENOENT')
                warnings.push(`Cannot list ${dir} (${code}): not scanned.`);
            return [];
        }
    };
    for (const project of listed(root)) {
        const projectDir = external_node_path_.join(root, project.name);
        if (!project.isDirectory()) {
            found.push(Promise.resolve(foreign(projectDir, project.name, '', describeType(project))));
            continue;
        }
        let owner;
        for (const child of listed(projectDir)) {
            if (child.name.startsWith('.'))
                continue; // ours: homes, the note of the parent
            const hostPath = external_node_path_.join(projectDir, child.name);
            if (!child.isDirectory()) {
                found.push(Promise.resolve(foreign(hostPath, project.name, child.name, describeType(child))));
                continue;
            }
            const gitDir = lstat(external_node_path_.join(hostPath, '.git'));
            if (gitDir?.isFile() && SANDBOX_NAME.test(child.name)) {
                found.push(linkedSandbox(hostPath, project.name, child.name, parents));
                continue;
            }
            if (!gitDir?.isDirectory()) {
                const why = !gitDir
                    ? 'no .git folder'
                    : gitDir.isFile()
                        ? 'not a sandbox name'
                        : '.git is not a folder';
                found.push(Promise.resolve(foreign(hostPath, project.name, child.name, why)));
                continue;
            }
            if (!SANDBOX_NAME.test(child.name)) {
                found.push(Promise.resolve(foreign(hostPath, project.name, child.name, 'not a sandbox name')));
                continue;
            }
            owner ??= parents.ownerOfProject(projectDir, project.name);
            found.push(owner.then((o) => diskSandbox(root, hostPath, project.name, child.name, o)));
        }
        // The folders are read synchronously: between projects, the processes asked for so far (the parents'
        // records, the engine's volumes) get started.
        await (0,external_node_timers_promises_namespaceObject.setImmediate)();
    }
    return Promise.all(found);
}
function foreign(where, project, name, why) {
    return {
        key: `disk:${where}`,
        sandbox: name,
        project,
        isolation: 'disk',
        where,
        notSandbox: why,
        hostPath: where,
    };
}
function describeType(dirent) {
    if (dirent.isSymbolicLink())
        return 'a symbolic link (never followed)';
    if (dirent.isFile())
        return 'a file, where only sandbox folders belong';
    return 'not a folder';
}
/** What every folder sandbox is, whatever its layout: named by its real path. */
function diskEntry(hostPath, project, name) {
    return { key: `disk:${hostPath}`, sandbox: name, project, isolation: 'disk', where: hostPath, hostPath };
}
function diskSandbox(root, hostPath, project, name, owner) {
    const activity = diskActivity(hostPath);
    const base = {
        ...diskEntry(hostPath, project, name),
        homePath: external_node_path_.join(external_node_path_.dirname(hostPath), HOME_FOLDER, name),
        lastActivityMs: lastActivity(activity.times),
        suspicious: activity.suspicious,
    };
    return {
        ...base,
        ...registration(owner, 'disk', name, project, (parent) => locateSandbox(plan(name), parent, 'disk', root, ''), hostPath),
    };
}
/**
 * A linked worktree: its parent and registration come from its `.git` file, verified (linked-worktree.ts).
 * A parent that is gone, or that no longer registers it, makes an orphan (its HEAD and index went with the
 * registration: nothing can be checked); a registration that is not its own makes it unregistered (kept).
 */
async function linkedSandbox(hostPath, project, name, parents) {
    const base = diskEntry(hostPath, project, name);
    const target = readGitFile(hostPath);
    if ('error' in target)
        return foreign(hostPath, project, name, target.error);
    const linked = { adminDir: target.adminDir, id: target.id };
    // Until the registration is verified, only the folder's own time is read: the registration's files
    // may be another worktree's (and the folder's `.git` is a file: nothing in it to read).
    const folderOnly = () => ({ ...base, linked, lastActivityMs: lstat(hostPath)?.mtimeMs });
    const owner = await parents.linkedParent(target.parentPath);
    if (owner.problem || !owner.parent)
        return {
            ...folderOnly(),
            parentPath: target.parentPath,
            orphan: owner.problem ?? 'no parent repository',
        };
    const registration = verifyRegistration(hostPath, target, parents.linkedFacts);
    if (registration.state === 'missing')
        return { ...folderOnly(), parentPath: owner.parentPath, orphan: registration.why };
    if (registration.state === 'foreign')
        return {
            ...folderOnly(),
            parentPath: owner.parentPath,
            parent: owner.parent,
            unregistered: registration.why,
        };
    const activity = diskActivity(hostPath, target.adminDir);
    return {
        ...base,
        parentPath: owner.parentPath,
        parent: owner.parent,
        linked: { ...linked, registered: { gitdirText: registration.gitdirText }, locked: registration.locked },
        lastActivityMs: lastActivity(activity.times),
        suspicious: activity.suspicious,
    };
}
// ---- volumes ------------------------------------------------------------------------------------------
async function scanVolumes(options, parents, warnings) {
    const { engine, volumePrefix: prefix } = options;
    const volumes = await (0,inventory/* listVolumes */.y)(engine, `${engine_labels/* MANAGED_LABEL */.bS}=true`, engine_labels/* VOLUME_LABEL_KEYS */.bW);
    const pending = [];
    for (const { name, labels } of volumes) {
        if (!name.startsWith(`${prefix}-`))
            continue;
        const project = labels[(0,engine_labels/* label */.Pf)('project')] ?? '';
        const sandbox = labels[(0,engine_labels/* label */.Pf)('sandbox')] ?? '';
        const base = {
            key: `volume:${name}`,
            sandbox,
            project,
            isolation: 'container',
            where: name,
            volume: name,
            branchLabel: labels[(0,engine_labels/* label */.Pf)('branch')],
        };
        if (!SANDBOX_NAME.test(sandbox) || !project) {
            pending.push(Promise.resolve({ ...base, notSandbox: 'its labels name no sandbox and project' }));
            continue;
        }
        // A longer prefix that starts with ours (another tenant) makes names that do not match their labels.
        if (volumeName(prefix, project, sandbox) !== name)
            continue;
        base.createdMs = parseTimestamp(labels[(0,engine_labels/* label */.Pf)('created')]);
        const parentPath = labels[(0,engine_labels/* label */.Pf)('parent')];
        if (!parentPath || !external_node_path_.isAbsolute(parentPath)) {
            pending.push(Promise.resolve({ ...base, orphan: 'its labels name no parent repository' }));
            continue;
        }
        pending.push(parents.ownerOf(parentPath, project).then((owner) => ({
            ...base,
            ...registration(owner, 'container', sandbox, project, (parent) => locateSandbox(plan(sandbox), parent, 'container', '', prefix), name),
        })));
    }
    const found = await Promise.all(pending);
    await readVolumeActivity(options, found.filter((s) => !s.notSandbox), warnings);
    return found;
}
/** Each volume's signals, from helper containers (a volume they could not read has no known age). */
async function readVolumeActivity(options, volumes, warnings) {
    if (volumes.length === 0)
        return;
    const seen = await lookAtVolumes(options.engine, options.image, volumes);
    let failed = 0;
    let firstError;
    for (const s of volumes)
        if (!seen.get(s.key)?.signals) {
            failed++;
            firstError ??= seen.get(s.key)?.error;
        }
    if (failed)
        warnings.push(`The activity of ${failed} volume(s) could not be read: their age is unknown, they are kept.${firstError ? ` The first: ${sandboxText(firstError)}` : ''}`);
}
/**
 * What helpers see of these volumes now, applied to each: its last activity (undefined when it could not be
 * read), its HEAD, and what is wrong with it. The scan asks, and the removal asks again just before.
 */
async function lookAtVolumes(engine, image, volumes) {
    const seen = await inspectInHelpers(engine, image, undefined, volumes.map((s) => ({ key: s.key, target: { volume: s.volume, name: s.sandbox }, signals: true })));
    for (const s of volumes)
        applyVolumeSignals(s, seen.get(s.key));
    return seen;
}
function applyVolumeSignals(s, seen) {
    const signals = seen?.signals;
    if (!signals) {
        s.lastActivityMs = undefined;
        return;
    }
    const times = [s.createdMs];
    const time = (signal) => ('mtimeMs' in signal ? signal.mtimeMs : undefined);
    if (signals.worktree.type !== 'dir' || signals.gitDir.type !== 'dir')
        s.broken = `its work tree or .git folder is missing from the volume (${signals.worktree.type}, ${signals.gitDir.type})`;
    else
        times.push(time(signals.worktree));
    for (const [file, signal] of Object.entries(signals.files)) {
        if (signal.type === 'file')
            times.push(signal.mtimeMs);
        else if (signal.type !== 'none')
            s.suspicious ??= `.git/${file} is not a regular file (a symbolic link?)`;
    }
    s.lastActivityMs = lastActivity(times);
    if (signals.head && 'ref' in signals.head)
        s.headRef = signals.head.ref;
}

;// CONCATENATED MODULE: ./src/reap/scanned-sandbox.ts
// What a scan finds: one record per folder or volume, with the facts the decisions need.

/** The git folder whose HEAD, index and logs are a disk sandbox's: its `.git`, or its registration. */
function gitDirOf(s) {
    return s.linked?.registered ? s.linked.adminDir : external_node_path_.join(s.hostPath, '.git');
}
/** A sandbox the parent can check: its records (run mode's sandboxes) or its registration (linked). */
function isCheckable(s) {
    return !s.orphan && !!s.parent && (s.recorded !== undefined || s.linked?.registered !== undefined);
}
/** Sandbox names as this action makes them: no path separators, never starting with a dot. */

;// CONCATENATED MODULE: ./src/reap/execute.ts
// Carrying out the removals decided. Each sandbox is removed under its own lock (a run that holds it, or
// takes it first, wins: the sandbox is then in use), after one last look at its activity, archived first
// when asked. A sandbox of a live parent goes the way run mode removes one (`removeSandbox`: its folders
// or volume, then every record the parent keeps of it); a linked worktree its folder, then its registration
// in the parent (linked-worktree.ts, under the parent's repository lock); an orphan loses its folders or
// volume only.
// On disk the reaper removes the folders itself first, carefully (remove-tree.ts): links are never followed,
// and what cannot be deleted is reported while the rest goes.












/** Removals running at once, and parents whose batches are removed at once. */
const REMOVALS_IN_FLIGHT = 4;
const PARENTS_AT_ONCE = 4;
/**
 * Sandboxes of one parent removed together: locked, looked at again and removed, then their records
 * dropped together (one repository lock, two git processes) before their locks are released; volumes
 * are looked at again by one helper per batch.
 */
const BATCH = 32;
/**
 * Removes every sandbox decided for removal: disk sandboxes a batch of one parent at a time (a few
 * parents at once), then volumes. One sandbox that fails in any step gets an outcome that says why, and
 * every other goes on: a failure is never the whole run's.
 */
async function carryOut(removals, deps) {
    const outcomes = new Map();
    const byParent = batchesByParent(removals.filter((r) => !r.sandbox.volume));
    await inParallel([...byParent.values()], PARENTS_AT_ONCE, async (batches) => {
        for (const batch of batches)
            await removeBatch(batch, deps, outcomes, diskActivityNow);
    });
    const volumes = removals.filter((r) => r.sandbox.volume);
    for (let i = 0; i < volumes.length; i += BATCH)
        await removeBatch(volumes.slice(i, i + BATCH), deps, outcomes, volumeActivityNow(deps));
    return outcomes;
}
const diskActivityNow = async () => (removal) => {
    const { sandbox } = removal;
    return lastActivity([...diskActivity(sandbox.hostPath, gitDirOf(sandbox)).times, sandbox.createdMs]);
};
const volumeActivityNow = (deps) => async (locked) => {
    const seen = await volumeActivity(locked, deps);
    return (removal) => seen.get(removal.sandbox.key);
};
/**
 * One batch (disk sandboxes of one parent, or volumes): each locked, its activity read again and, when
 * nothing happened since the scan, removed; then the parent forgets the removed ones (records,
 * registrations), the project folders left empty go, the locks are released and the outcomes logged.
 */
async function removeBatch(batch, deps, outcomes, activityNow) {
    const locks = await inParallel(batch, REMOVALS_IN_FLIGHT, (removal) => lock(removal.sandbox));
    try {
        const activityOf = await activityNow(batch.filter((_, n) => !('refused' in locks[n])));
        const forget = forgetNothing();
        const done = await inParallel(batch, REMOVALS_IN_FLIGHT, async (removal) => {
            const held = locks[batch.indexOf(removal)];
            if ('refused' in held)
                return skipped(held.refused);
            try {
                return await removeOne(removal, activityOf(removal), { ...deps, forget });
            }
            catch (error) {
                return failed(error.message);
            }
        });
        await forgetAll(batch, done, forget, deps);
        batch.forEach((removal, n) => {
            outcomes.set(removal.decision.key, done[n]);
            deps.log(removalLine(removal.decision, done[n]));
        });
    }
    finally {
        await release(locks);
    }
}
/**
 * What a batch leaves to do once its folders are gone: the removed folders' records, the linked
 * worktrees' registrations, then the project folders left empty. Never throws: what could not be done
 * is said on the outcomes of the sandboxes it concerns.
 */
async function forgetAll(batch, done, forget, deps) {
    try {
        await forgetBatch(batch, done, forget, deps);
        const left = await forgetRegistrations(forget.registrations);
        forget.registrations.forEach(({ outcome }, n) => {
            const why = left[n];
            if (!why)
                return;
            if (why.problem)
                outcome.problems.push(why.problem);
            outcome.status = 'partly removed';
            outcome.detail = `its registration was left: ${why.reason}`;
        });
    }
    catch (error) {
        for (const outcome of done)
            if (outcome.status === 'removed') {
                outcome.status = 'partly removed';
                outcome.detail = `its folders went, but what its parent keeps of it may be left (${error.message})`;
            }
    }
    for (const dir of forget.projectDirs)
        await removeEmptyProjectDir(dir).catch(() => undefined); // an empty folder left is harmless
}
/**
 * The parent forgets the batch's removed sandboxes, together; when that fails, one at a time, so that one
 * sandbox whose records cannot be dropped leaves the others' dropped (its own outcome says so).
 */
async function forgetBatch(batch, done, forget, deps) {
    const { sandboxes } = forget;
    if (!sandboxes.length)
        return;
    try {
        await forgetSandboxes(deps.git, sandboxes, readRecordNames);
        return;
    }
    catch {
        // one at a time below
    }
    for (const sandbox of sandboxes) {
        try {
            await forgetSandboxes(deps.git, [sandbox], readRecordNames);
        }
        catch (error) {
            const outcome = done[batch.findIndex((r) => r.sandbox.location === sandbox)];
            if (outcome) {
                outcome.status = 'partly removed';
                outcome.detail = `its folders went, but its parent's records of it could not be dropped (${error.message})`;
            }
        }
    }
}
/** The removals in batches, by parent (orphans and sandboxes without a parent together: ''). */
function batchesByParent(removals) {
    const byParent = new Map();
    for (const removal of removals) {
        const { parent, orphan } = removal.sandbox;
        const key = parent && !orphan ? parent.gitDir : '';
        const group = byParent.get(key);
        if (group)
            group.push(removal);
        else
            byParent.set(key, [removal]);
    }
    const batches = new Map();
    for (const [parent, group] of byParent) {
        const cut = [];
        for (let i = 0; i < group.length; i += BATCH)
            cut.push(group.slice(i, i + BATCH));
        batches.set(parent, cut);
    }
    return batches;
}
function forgetNothing() {
    return { sandboxes: [], registrations: [], projectDirs: new Set() };
}
async function release(locks) {
    await Promise.all(locks.flatMap((held) => (held && 'release' in held && held.release ? [held.release()] : [])));
}
function lock(sandbox) {
    return !sandbox.parent || sandbox.orphan
        ? Promise.resolve({})
        : tryLockSandbox(sandbox.parent.gitDir, sandbox.sandbox);
}
/** The newest activity of each volume now, seen by helpers. */
async function volumeActivity(volumes, deps) {
    const copies = volumes.map(({ sandbox }) => ({ ...sandbox }));
    if (copies.length)
        await lookAtVolumes(deps.engine, deps.image, copies);
    return new Map(copies.map((s) => [s.key, s.lastActivityMs]));
}
function skipped(detail) {
    return { status: 'skipped', detail, freedBytes: 0, archived: [], problems: [] };
}
function failed(detail) {
    return { status: 'not removed', detail, freedBytes: 0, archived: [], problems: [] };
}
async function removeOne({ decision, sandbox }, activity, deps) {
    if (activity === undefined)
        return skipped('its activity could not be read again');
    if (decision.lastActivityMs === undefined || activity > decision.lastActivityMs)
        return skipped('activity since the scan');
    const outcome = skipped('');
    delete outcome.detail;
    const refused = decision.archive && sandbox.hostPath ? await deps.diskHelpersRefused?.() : undefined;
    if (refused) {
        outcome.detail = `not archived: ${refused}`;
        return outcome;
    }
    if (decision.archive) {
        try {
            outcome.archived = await archiveSandbox(sandbox, decision.archive, deps);
        }
        catch (error) {
            outcome.detail = `archiving failed (${error.message})`;
            return outcome;
        }
    }
    try {
        if (sandbox.volume)
            await removeVolume(sandbox, decision, deps, outcome);
        else
            await removeFolders(sandbox, deps, outcome);
    }
    catch (error) {
        outcome.status = 'not removed';
        outcome.detail = error.message;
    }
    return outcome;
}
async function removeVolume(sandbox, decision, deps, outcome) {
    // An orphan's records went with its parent: only the volume is left to remove.
    if (sandbox.location && !sandbox.orphan)
        await removeSandbox(deps.git, deps.engine, sandbox.location);
    else
        await deps.engine.removeVolume(sandbox.volume);
    outcome.status = 'removed';
    outcome.freedBytes = decision.sizeBytes ?? 0;
}
async function removeFolders(sandbox, deps, outcome) {
    const tree = await removeSandboxTree(deps.root, sandbox.hostPath);
    if (tree.unlinked && sandbox.homePath)
        await removeHomeFolder(deps.root, sandbox.homePath, tree);
    outcome.freedBytes = tree.freedBytes;
    outcome.problems = tree.problems;
    if (!tree.unlinked) {
        outcome.status = 'not removed';
        outcome.detail = `its .git folder could not be moved away (${tree.problems[0]?.error}): left intact`;
        return;
    }
    // No sandbox any more (its .git is gone): the parent forgets it (with the batch's others), and its
    // project folder goes with its last sandbox.
    const location = sandbox.location && !sandbox.orphan ? sandbox.location : undefined;
    if (location)
        deps.forget.sandboxes.push(location);
    if (sandbox.linked?.registered && sandbox.parent && !sandbox.orphan)
        deps.forget.registrations.push({ parent: sandbox.parent, linked: sandbox.linked, outcome });
    deps.forget.projectDirs.add(external_node_path_.dirname(sandbox.hostPath));
    if (tree.problems.length === 0) {
        outcome.status = 'removed';
        return;
    }
    outcome.status = 'partly removed';
    outcome.detail = `${tree.problems.length} entr${tree.problems.length === 1 ? 'y' : 'ies'} could not be deleted`;
}
/** The log line of one removal carried out. */
function removalLine(decision, outcome) {
    const what = `${decision.project}/${decision.sandbox} (${decision.isolation === 'disk' ? decision.where : `volume ${decision.where}`})`;
    const detail = outcome.detail ? `: ${outcome.detail}` : '';
    const archived = outcome.archived.length ? `; archived to ${outcome.archived.join(', ')}` : '';
    // Names and details (an archiver's error, a helper's) came from the sandbox: one escaped line.
    return sandboxText(`${outcome.status} ${what}${detail}${archived}`, 8_000);
}

// EXTERNAL MODULE: ./src/engine/host-image.ts
var host_image = __nccwpck_require__(3858);
;// CONCATENATED MODULE: ./src/engine/helper-image.ts
// The image of the reaper's helper containers, made on the spot from the runner's own programs: the host's
// `sh`, `git` and the few tools the helpers' scripts call, with the shared libraries `ldd` names, as one
// layer imported into the engine (`docker import`, `podman import`, rootless too). So the reaper's verdict
// on a sandbox (its activity, its work, its size) never rests on a program from the `image` input, which
// may lie; that image then only runs run mode's command. host-image.ts makes, checks and caches it.







/** What the reaper's helper scripts call (inspection, archives, capture for archives). */
const HELPER_PROGRAMS = [
    'sh',
    'git',
    'cat',
    'cp',
    'cut',
    'du',
    'find',
    'gzip',
    'head',
    'mkdir',
    'mktemp',
    'mv',
    'printf',
    'rm',
    'stat',
    'tar',
    'touch',
    'tr',
    'wc',
];
const HELPER_IMAGE_REPOSITORY = 'localhost/worktree-sandbox-helper';
const HELPER_IMAGE_LABEL = (0,engine_labels/* label */.Pf)('helper-image');
/** Where the programs are looked for on the host, in this order (the system's own folders first). */
const HOST_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
/**
 * The helper image's name in this engine, made first when missing (once per process and engine; a failure
 * is not remembered). Throws when the host lacks a program or the engine refuses the import: the reaper
 * then decides nothing rather than trust another image.
 */
function controlledHelperImage(engine) {
    return (0,host_image/* hostImage */.mW)(engine, {
        repository: HELPER_IMAGE_REPOSITORY,
        label: HELPER_IMAGE_LABEL,
        what: 'the helper image',
        entries: helperLayerEntries,
    });
}
function helperImageOnDemand(engine) {
    let image;
    return () => (image ??= controlledHelperImage(engine));
}
/** The layer's entries: each program at /usr/bin/<name>, its libraries where `ldd` found them. */
async function helperLayerEntries() {
    const entries = new host_image/* LayerEntries */.cy();
    const found = HELPER_PROGRAMS.map((program) => {
        const at = hostProgram(program);
        if (!at)
            throw new Error(`the helper image needs ${program}, which is not in ${HOST_DIRS.join(':')}`);
        return at;
    });
    HELPER_PROGRAMS.forEach((program, n) => entries.file(`/usr/bin/${program}`, found[n]));
    const gitPath = found[HELPER_PROGRAMS.indexOf('git')];
    // One ldd for every program: the start-up of every reap pays for it.
    for (const lib of await (0,host_image/* sharedLibraries */.Xo)([...new Set(found)], 'the helper image'))
        entries.file(lib, lib);
    // git runs its own sub-commands (pack-objects for a bundle) from its exec path.
    const execPath = (await (0,proc/* runProcess */.R3)(gitPath, ['--exec-path'], {
        env: { PATH: host_image/* HOST_IMAGE_PATH */.tg },
        limit: { ms: (0,time_limits/* timeLimitMs */.PI)('ldd'), purpose: "asking where git's sub-commands are, for the helper image" },
    })).stdout.trim();
    if (external_node_path_.isAbsolute(execPath) && execPath !== '/usr/bin')
        entries.symlink(`${execPath}/git`, '/usr/bin/git');
    if (!entries.has('/bin'))
        entries.symlink('/bin', 'usr/bin');
    entries.dir('/tmp', 0o1777);
    for (const dir of ['/dev', '/proc', '/sys', '/etc'])
        entries.dir(dir);
    return entries.list();
}
function hostProgram(name) {
    for (const dir of HOST_DIRS) {
        const candidate = external_node_path_.join(dir, name);
        try {
            const real = external_node_fs_.realpathSync(candidate);
            const st = external_node_fs_.statSync(real);
            if (st.isFile() && st.mode & 0o111)
                return real;
        }
        catch {
            // not here
        }
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/reap/clean-probe.ts
// The filesystem fast path of the check for work: proves that a worktree is clean without starting git,
// or says why it cannot (then git decides, in a helper container). It proves "clean" only when:
//  - the index's cache tree is complete and names HEAD's tree (nothing staged);
//  - every index entry is an ordinary file or link whose stat data still matches what git cached (with
//    ctime and inode, stricter than git itself), or whose content hashes to the blob in the index;
//  - no file or folder exists that the index does not list; where some do (and everything listed is
//    clean), they are returned, for the caller to judge with the parent's ignore rules (ignored.ts).
// It never writes anything, so it cannot reset the activity clock it is part of.




/** Unlisted entries collected before the fast path leaves the decision to git. */
const UNLISTED_MAX = 200;
/** An index larger than this is left to git. */
const INDEX_MAX = 512 * 1024 * 1024;
/** Files larger than this are not hashed by the fast path: git decides. */
const HASH_LIMIT = 8 * 1024 * 1024;
const NS = 1000000000n;
const REGULAR = 0o100000;
const SYMLINK = 0o120000;
const NOT_HEAD = 'the index does not match HEAD as a whole';
/**
 * `gitDir` is the sandbox's own `.git` folder: its index is read as data (never through a link), and the
 * work tree is walked before any file in it is read, so that a folder replaced by a link is caught
 * before anything is read through it.
 */
function proveClean(worktree, gitDir, headTree) {
    return matchHeadTree(proveAgainstIndex(worktree, gitDir, headTree.length / 2), headTree);
}
/** A proof made against the index's tree (proveAgainstIndex), as it stands once HEAD's tree is known. */
function matchHeadTree({ proof, rootTree }, headTree) {
    if (rootTree !== undefined && rootTree !== headTree)
        return { clean: false, unsure: NOT_HEAD };
    return proof;
}
/**
 * The same proof before HEAD's tree is known: against the tree the index records for the whole (its
 * cache tree), returned as `rootTree` when the proof got that far. It proves anything only where the
 * caller finds `rootTree` to be HEAD's tree (proveClean). This lets a reap walk its sandboxes first, and
 * ask the parent for HEAD's tree and the `.gitignore` files that the walk found needed in one git process.
 */
function proveAgainstIndex(worktree, gitDir, hashBytes) {
    const unsure = (why) => ({ proof: { clean: false, unsure: why } });
    const indexFile = external_node_path_.join(gitDir, 'index');
    const read = readBounded(indexFile, INDEX_MAX);
    if ('absent' in read)
        return unsure('there is no index');
    if ('error' in read)
        return unsure(read.error);
    const indexMtime = external_node_fs_.lstatSync(indexFile, { bigint: true }).mtimeNs;
    const reading = parseIndex(read.data, hashBytes);
    if (!reading.ok)
        return unsure(reading.unsupported);
    const { entries, rootTree } = reading.index;
    if (rootTree === undefined)
        return unsure(NOT_HEAD);
    return { proof: walkAgainstIndex(worktree, entries, indexMtime, hashBytes), rootTree };
}
function walkAgainstIndex(worktree, entries, indexMtime, hashBytes) {
    const unsure = (why) => ({ clean: false, unsure: why });
    const tracked = new Set();
    const folders = new Set();
    for (const entry of entries) {
        if (!safeEntryPath(entry.path))
            return unsure(`the index lists a path git would refuse: ${JSON.stringify(entry.path)}`);
        tracked.add(entry.path);
        for (let dir = external_node_path_.posix.dirname(entry.path); dir !== '.'; dir = external_node_path_.posix.dirname(dir)) {
            if (folders.has(dir))
                break;
            folders.add(dir);
        }
    }
    for (const dir of folders)
        if (tracked.has(dir))
            return unsure(`${dir} is both a file and a folder in the index`);
    const listing = unlistedEntries(worktree, tracked, folders);
    if (typeof listing === 'string')
        return unsure(listing);
    for (const entry of entries) {
        const problem = entryProblem(worktree, entry, indexMtime, hashBytes);
        if (problem)
            return unsure(`${entry.path}: ${problem}`);
    }
    if (listing.length === 0)
        return { clean: true };
    const gitignores = new Map();
    for (const entry of entries)
        if (external_node_path_.posix.basename(entry.path) === '.gitignore') {
            const dir = external_node_path_.posix.dirname(entry.path);
            gitignores.set(dir === '.' ? '' : dir, entry.oid);
        }
    return {
        clean: false,
        unsure: `${listing[0].rel} is not in the index`,
        untracked: { unlisted: listing, gitignores },
    };
}
/** A relative path with no empty, `.`, `..` or `.git` component (git refuses such index entries). */
function safeEntryPath(p) {
    return p
        .split('/')
        .every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
}
function entryProblem(worktree, entry, indexMtime, hashBytes) {
    if (entry.stage !== 0)
        return 'a conflict';
    if (entry.special)
        return 'flagged assume-valid, skip-worktree or intent-to-add';
    const type = entry.mode & 0o170000;
    if (type !== REGULAR && type !== SYMLINK)
        return 'not a plain file or link (a submodule?)';
    const file = external_node_path_.join(worktree, entry.path);
    let st;
    try {
        st = external_node_fs_.lstatSync(file, { bigint: true });
    }
    catch {
        return 'missing';
    }
    if (type === SYMLINK ? !st.isSymbolicLink() : !st.isFile())
        return 'changed type';
    if (type === REGULAR && (st.mode & 64n ? 0o100755 : 0o100644) !== entry.mode)
        return 'mode changed';
    if (st.size !== BigInt(entry.size))
        return 'size changed';
    const racy = at(entry.mtimeSec, entry.mtimeNsec) >= indexMtime;
    if (!racy && statMatches(st, entry))
        return undefined;
    // Stat data moved (a copy, a touch) or is too close to the index write to trust: compare content.
    if (st.size > BigInt(HASH_LIMIT))
        return 'changed stat data on a large file';
    // Read as data, never through a link and never blocking: the file may have been swapped for a FIFO
    // since the lstat above (opening one for reading waits for a writer forever).
    let content;
    if (type === SYMLINK) {
        try {
            content = Buffer.from(external_node_fs_.readlinkSync(file, 'buffer'));
        }
        catch {
            return 'unreadable';
        }
    }
    else {
        const read = readBounded(file, HASH_LIMIT);
        if (!('data' in read))
            return 'unreadable';
        content = read.data;
    }
    return blobName(content, hashBytes) === entry.oid ? undefined : 'content changed';
}
function at(sec, nsec) {
    return BigInt(sec) * NS + BigInt(nsec);
}
/** git's own comparison plus ctime and inode; nanoseconds where the index has them. */
function statMatches(st, entry) {
    const same = (ns, sec, nsec) => nsec === 0 ? ns / NS === BigInt(sec) : ns === at(sec, nsec);
    return (same(st.mtimeNs, entry.mtimeSec, entry.mtimeNsec) &&
        same(st.ctimeNs, entry.ctimeSec, entry.ctimeNsec) &&
        BigInt.asUintN(32, st.ino) === BigInt(entry.ino) &&
        Number(st.uid) === entry.uid &&
        Number(st.gid) === entry.gid);
}
/**
 * The files and folders (relative paths) that the index does not account for, walking only the folders
 * it lists; or why the fast path stops here (a listed folder that is no folder any more, too many).
 */
function unlistedEntries(worktree, tracked, folders) {
    const found = [];
    const pending = [''];
    while (pending.length) {
        const dir = pending.pop();
        let names;
        try {
            names = external_node_fs_.readdirSync(dir ? external_node_path_.join(worktree, dir) : worktree, { withFileTypes: true });
        }
        catch {
            return `${dir || '.'} cannot be listed`;
        }
        for (const dirent of names) {
            const rel = dir ? `${dir}/${dirent.name}` : dirent.name;
            if (rel === '.git' || tracked.has(rel))
                continue;
            if (folders.has(rel)) {
                if (!dirent.isDirectory())
                    return `${rel} is not in the index`;
                pending.push(rel);
                continue;
            }
            if (/[\n\r\0]/.test(rel))
                return `${JSON.stringify(rel)} is not in the index`;
            found.push({ rel, isDir: dirent.isDirectory() });
            if (found.length > UNLISTED_MAX)
                return `more than ${UNLISTED_MAX} entries are not in the index`;
        }
    }
    return found;
}
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE_MASK = 0x3000;
const NAME_MASK = 0x0fff;
/** Parses an index whose object names are `hashBytes` long (20 for SHA-1, 32 for SHA-256). */
function parseIndex(buf, hashBytes = 20) {
    const fail = (why) => ({ ok: false, unsupported: why });
    if (buf.length < 12 + hashBytes || buf.toString('latin1', 0, 4) !== 'DIRC')
        return fail('not an index file');
    const version = buf.readUInt32BE(4);
    if (version !== 2 && version !== 3)
        return fail(`index version ${version}`);
    const end = buf.length - hashBytes;
    if (!checksumOk(buf, end, hashBytes))
        return fail('index checksum mismatch');
    const count = buf.readUInt32BE(8);
    const entries = [];
    let off = 12;
    for (let i = 0; i < count; i++) {
        const fixed = 40 + hashBytes + 2;
        if (off + fixed > end)
            return fail('truncated entry');
        const flags = buf.readUInt16BE(off + 40 + hashBytes);
        let nameStart = off + fixed;
        let special = (flags & ASSUME_VALID) !== 0;
        if (flags & EXTENDED) {
            if (version < 3)
                return fail('extended flags in a version 2 index');
            special = special || buf.readUInt16BE(nameStart) !== 0;
            nameStart += 2;
        }
        let nameLength = flags & NAME_MASK;
        if (nameLength === NAME_MASK)
            nameLength = buf.indexOf(0, nameStart) - nameStart;
        if (nameLength < 0 || nameStart + nameLength > end)
            return fail('truncated entry name');
        entries.push({
            ctimeSec: buf.readUInt32BE(off),
            ctimeNsec: buf.readUInt32BE(off + 4),
            mtimeSec: buf.readUInt32BE(off + 8),
            mtimeNsec: buf.readUInt32BE(off + 12),
            ino: buf.readUInt32BE(off + 20),
            mode: buf.readUInt32BE(off + 24),
            uid: buf.readUInt32BE(off + 28),
            gid: buf.readUInt32BE(off + 32),
            size: buf.readUInt32BE(off + 36),
            oid: buf.toString('hex', off + 40, off + 40 + hashBytes),
            stage: (flags & STAGE_MASK) >> 12,
            special,
            path: buf.toString('utf8', nameStart, nameStart + nameLength),
        });
        // Entries are NUL-padded to a multiple of 8 bytes (at least one NUL).
        off += (nameStart - off + nameLength + 8) & ~7;
    }
    let rootTree;
    while (off + 8 <= end) {
        const signature = buf.toString('latin1', off, off + 4);
        const size = buf.readUInt32BE(off + 4);
        const data = off + 8;
        if (data + size > end)
            return fail(`truncated extension ${signature}`);
        if (signature === 'TREE')
            rootTree = cacheTreeRoot(buf.subarray(data, data + size), hashBytes);
        // Extensions whose signature starts with A-Z are optional; any other one changes how to read the index.
        else if (!/^[A-Z]/.test(signature))
            return fail(`index extension ${JSON.stringify(signature)}`);
        off = data + size;
    }
    if (off !== end)
        return fail('trailing bytes');
    return { ok: true, index: { version, entries, rootTree } };
}
function checksumOk(buf, end, hashBytes) {
    const stored = buf.subarray(end);
    if (stored.every((b) => b === 0))
        return true; // index.skipHash
    const algorithm = hashBytes === 32 ? 'sha256' : 'sha1';
    return (0,external_node_crypto_.createHash)(algorithm).update(buf.subarray(0, end)).digest().equals(stored);
}
/** The first cache-tree record is the root: path "", entry count, subtree count, then its tree name. */
function cacheTreeRoot(data, hashBytes) {
    const nul = data.indexOf(0);
    const newline = data.indexOf(0x0a, nul + 1);
    if (nul !== 0 || newline < 0)
        return undefined;
    const [entryCount] = data.toString('latin1', nul + 1, newline).split(' ');
    if (Number(entryCount) < 0 || newline + 1 + hashBytes > data.length)
        return undefined;
    return data.toString('hex', newline + 1, newline + 1 + hashBytes);
}
/** The name git gives a blob with this content. */
function blobName(content, hashBytes = 20) {
    const hash = (0,external_node_crypto_.createHash)(hashBytes === 32 ? 'sha256' : 'sha1');
    hash.update(`blob ${content.length}\0`);
    hash.update(content);
    return hash.digest('hex');
}

// EXTERNAL MODULE: ./node_modules/ignore/index.js
var ignore = __nccwpck_require__(298);
var ignore_default = /*#__PURE__*/__nccwpck_require__.n(ignore);
;// CONCATENATED MODULE: ./src/reap/ignored.ts
// Which untracked entries of a clean work tree git ignores, decided on the host as data, so that a stale
// sandbox holding only build output (`node_modules/`, `build/`) needs no helper container. Only rules the
// parent vouches for are used: the `.gitignore` files of the tree of HEAD, read from the PARENT's objects,
// each checked to be exactly what the index lists (which the fast path checked against the files). Rules
// a sandbox wrote (an untracked `.gitignore`, its `info/exclude`) could only make the host call ignored
// what git does not, or the reverse: where they exist, the host does not decide (the helper's git does).
//
// The matching is the `ignore` package's (the gitignore rules of git's documentation), for one
// `.gitignore` (where several apply to an entry, git decides), and only for patterns of a plain form
// (ignoredRules): anything else, and the host leaves the decision to git. src/reap/ignored.spec.ts compares it with git itself on generated
// patterns and paths, and must find no path called ignored that git does not ignore.





/** A `.gitignore` larger than this is left to git. */
const GITIGNORE_MAX = 64 * 1024;
/** Untracked entries walked in one sandbox before the host leaves it to git. */
const WALK_MAX = 5_000;
/**
 * Lines of the forms git and the `ignore` package read alike (ignored.spec.ts compares them with git): a
 * comment, a blank line, or a pattern of plain names with `*` and `?` where each path segment also holds
 * a plain character (a segment of wildcards only, such as `build/*\/`, the package matches differently).
 */
const SEGMENT = '[A-Za-z0-9._*?-]*[A-Za-z0-9._-][A-Za-z0-9._*?-]*';
const PLAIN_LINE = new RegExp(`^(?:#.*|!?/?(?:${SEGMENT}/)*${SEGMENT}/?)?$`);
/**
 * The rules of the trusted `.gitignore` files (folder `''` for the top, `a/b` for `a/b/.gitignore`), or why
 * the host cannot apply them exactly.
 */
function ignoredRules(files) {
    const levels = [...files].filter(([, text]) => text.split('\n').some((l) => l && !l.startsWith('#')));
    if (levels.length === 0)
        return { ignored: () => false };
    // One file's rules, as the package reads them (a folder it ignores hides what is below it), are git's;
    // across several files git's precedence (the deeper file first, for the path itself) differs from what
    // composing the package's answers gives, so several files are left to git.
    if (levels.length > 1)
        return { unsupported: 'more than one .gitignore applies' };
    const [dir, text] = levels[0];
    for (const line of text.replace(/\n$/, '').split('\n'))
        if (!PLAIN_LINE.test(line))
            return { unsupported: `${dir ? `${dir}/` : ''}.gitignore has a pattern of a form left to git` };
    const ig = ignore_default()({ ignorecase: false }).add(text);
    return {
        ignored(rel, isDir) {
            if (dir && !rel.startsWith(`${dir}/`))
                return false;
            const own = dir ? rel.slice(dir.length + 1) : rel;
            return ig.test(isDir ? `${own}/` : own).ignored;
        },
    };
}
/**
 * The untracked entries judged: a folder that is not ignored is walked (lstat only, bounded; links are
 * entries, never followed). `sandboxRules` says whether the sandbox has rules of its own (its
 * `info/exclude`): then only "all ignored" can be decided here. A `.gitignore` found among the untracked
 * entries is the sandbox's own rule: left to git.
 */
function judgeUntracked(worktree, unlisted, rules, sandboxRules) {
    const files = untrackedFiles(worktree, unlisted, rules);
    if (!Array.isArray(files))
        return files;
    if (files.length === 0)
        return { ignoredOnly: true };
    if (sandboxRules)
        return { unsure: 'its own info/exclude may ignore what is untracked' };
    return { ignoredOnly: false, untracked: files.length };
}
/** The untracked files (and nested repositories) git would report, as `git ls-files -o --exclude-standard`. */
function untrackedFiles(worktree, unlisted, rules) {
    const untracked = [];
    let seen = 0;
    const pending = [...unlisted];
    while (pending.length) {
        const entry = pending.pop();
        if (++seen > WALK_MAX)
            return { unsure: `more than ${WALK_MAX} untracked entries` };
        if (external_node_path_.posix.basename(entry.rel) === '.gitignore')
            return { unsure: `${entry.rel} is a .gitignore the parent does not vouch for` };
        if (rules.ignored(entry.rel, entry.isDir))
            continue;
        if (!entry.isDir) {
            untracked.push(entry.rel);
            continue;
        }
        // A nested repository is one entry for git, never entered.
        const dir = external_node_path_.join(worktree, entry.rel);
        if (lstat(external_node_path_.join(dir, '.git'))) {
            untracked.push(`${entry.rel}/`);
            continue;
        }
        // Read one entry at a time: a folder of a million names is not listed whole.
        let listing;
        try {
            listing = external_node_fs_.opendirSync(dir);
        }
        catch {
            return { unsure: `${entry.rel} cannot be listed` };
        }
        try {
            for (let dirent = listing.readSync(); dirent; dirent = listing.readSync()) {
                if (seen + pending.length > WALK_MAX)
                    return { unsure: `more than ${WALK_MAX} untracked entries` };
                pending.push({ rel: `${entry.rel}/${dirent.name}`, isDir: dirent.isDirectory() });
            }
        }
        catch {
            return { unsure: `${entry.rel} cannot be listed` };
        }
        finally {
            listing.closeSync();
        }
    }
    return untracked;
}
/** The folders whose `.gitignore` rules apply to these entries: each one's ancestors, the top (`''`) too. */
function ruleFolders(unlisted) {
    const dirs = new Set(['']);
    for (const { rel } of unlisted)
        for (let dir = external_node_path_.posix.dirname(rel); dir !== '.'; dir = external_node_path_.posix.dirname(dir))
            dirs.add(dir);
    return [...dirs];
}
/** Whether `info/exclude` of a sandbox's git folder holds any rule (not only comments and blank lines). */
function hasOwnRules(excludeText) {
    return (excludeText ?? '').split('\n').some((line) => line.trim() !== '' && !line.startsWith('#'));
}
/**
 * The `.gitignore` files a question needs, as `cat-file` names them: each folder's in `headTree`. A
 * caller may have them read beforehand (`known` of judgeUntrackedInParent).
 */
function gitignoreNames(headTree, untracked) {
    return ruleFolders(untracked.unlisted).map((dir) => objectName(headTree, dir));
}
/**
 * `known`: the `.gitignore` files already read from the parent (gitignoreNames), within GITIGNORE_MAX;
 * git is asked only when it lacks one.
 */
async function judgeUntrackedInParent(git, parent, questions, known) {
    const verdicts = new Map();
    const asked = new Map();
    const folders = new Map(questions.map((q) => [q.key, ruleFolders(q.untracked.unlisted)]));
    for (const q of questions)
        for (const dir of folders.get(q.key))
            asked.set(objectName(q.headTree, dir), null);
    const texts = new Map();
    const read = await readGitignores(git, parent, asked, texts, known);
    if (!read) {
        for (const q of questions)
            verdicts.set(q.key, { unsure: 'the parent could not list its .gitignore files' });
        return verdicts;
    }
    for (const q of questions) {
        const files = new Map();
        let problem;
        for (const dir of folders.get(q.key)) {
            const blob = asked.get(objectName(q.headTree, dir)) ?? null;
            // What the index lists there must be HEAD's own file (or nothing where HEAD has none).
            if ((blob?.oid ?? undefined) !== q.untracked.gitignores.get(dir)) {
                problem = `${dir ? `${dir}/` : ''}.gitignore is not HEAD's`;
                break;
            }
            if (!blob)
                continue;
            const text = texts.get(blob.oid);
            if (text === undefined) {
                problem = `${dir ? `${dir}/` : ''}.gitignore could not be read from the parent`;
                break;
            }
            files.set(dir, text);
        }
        if (problem) {
            verdicts.set(q.key, { unsure: problem });
            continue;
        }
        const rules = ignoredRules(files);
        if ('unsupported' in rules) {
            verdicts.set(q.key, { unsure: rules.unsupported });
            continue;
        }
        const exclude = readBounded(external_node_path_.join(q.gitDir, 'info', 'exclude'), GITIGNORE_MAX);
        const ownRules = 'error' in exclude || ('data' in exclude && hasOwnRules(exclude.data.toString('utf8')));
        verdicts.set(q.key, judgeUntracked(q.worktree, q.untracked.unlisted, rules, ownRules));
    }
    return verdicts;
}
/**
 * HEAD's `.gitignore` files that `asked` names (`<tree>:<dir>/.gitignore`), read from the parent: each
 * name's blob into `asked`, and the text of each blob within GITIGNORE_MAX into `texts`. All in one
 * `cat-file --batch` when every file is within that size; otherwise in two steps, sizes first, so that a
 * larger one is never read. False when the parent could not list them.
 */
async function readGitignores(git, parent, asked, texts, known) {
    const names = [...asked.keys()];
    const readBefore = known && names.every((name) => known.has(name) && (known.get(name)?.body.length ?? 0) <= GITIGNORE_MAX);
    const atOnce = readBefore ? known : await git.readSmallObjects(parent.path, names, GITIGNORE_MAX);
    if (atOnce) {
        for (const name of names) {
            const object = atOnce.get(name);
            const blob = object?.type === 'blob' ? object : undefined;
            asked.set(name, blob ? { oid: blob.oid, size: blob.body.length } : null);
            if (blob)
                texts.set(blob.oid, blob.body.toString('utf8'));
        }
        return true;
    }
    const found = await git.exec(parent.path, ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { input: Buffer.from(`${names.join('\n')}\n`) });
    const lines = found.stdout.split('\n');
    if (found.exitCode !== 0 || lines.length < names.length)
        return false;
    names.forEach((name, i) => {
        const [oid, type, size] = lines[i].split(' ');
        asked.set(name, OID.test(oid) && type === 'blob' ? { oid, size: Number(size) } : null);
    });
    for (const blob of new Set([...asked.values()].filter((b) => !!b))) {
        if (texts.has(blob.oid) || blob.size > GITIGNORE_MAX)
            continue;
        const out = await git.exec(parent.path, ['cat-file', 'blob', blob.oid]);
        if (out.exitCode === 0)
            texts.set(blob.oid, out.stdout);
    }
    return true;
}
/** `<tree>:<folder>/.gitignore`, as `cat-file` names it. */
function objectName(tree, dir) {
    return `${tree}:${dir ? `${dir}/` : ''}.gitignore`;
}

;// CONCATENATED MODULE: ./src/reap/parent-check.ts




/**
 * Objects read with their content in the parent check's one git process: commits and tags are far
 * smaller; a `.gitignore` is read only within this (ignored.ts).
 */
const OBJECT_MAX = GITIGNORE_MAX;
/** Unsaved commits counted per sandbox up to this many; past it, the count is a lower bound. */
const MAX_COUNTED = 10_000;
/**
 * `alsoRead`: more objects the caller wants read (`<tree>:<path>` names of small files: HEAD's
 * `.gitignore` files), in the same git process where every object is small.
 */
async function checkAgainstParent(git, parent, sandboxes, alsoRead = []) {
    const verdicts = new Map();
    const valid = sandboxes.filter((s) => {
        const bad = [s.headOid, ...s.named].find((oid) => !OID.test(oid));
        if (bad !== undefined)
            verdicts.set(s.key, {
                error: `it names an object that is no object name: ${JSON.stringify(bad.slice(0, 80))}`,
            });
        return bad === undefined;
    });
    if (valid.length === 0)
        return { verdicts };
    const objects = [...new Set(valid.flatMap((s) => s.named))];
    const heads = [...new Set(valid.map((s) => s.headOid))];
    const facts = await objectFacts(git, parent, objects, heads, alsoRead);
    if ('error' in facts) {
        for (const s of valid)
            verdicts.set(s.key, { error: facts.error });
        return { verdicts };
    }
    const { types, trees, read } = facts;
    // Commits and tags the parent has: which commits do they reach that nothing saved reaches? With each
    // such commit's parents, so that every sandbox's own commits can be counted from the one answer.
    const walkable = objects.filter((oid) => types.get(oid) === 'commit' || types.get(oid) === 'tag');
    const unsavedFrom = async (revs) => {
        const graph = new Map();
        if (!walkable.length)
            return graph;
        const list = await git.exec(parent.path, ['rev-list', '--stdin', '--parents', '--not', ...revs], {
            input: Buffer.from(`${walkable.join('\n')}\n`),
        });
        if (list.exitCode !== 0)
            return {
                error: `git rev-list failed in the parent: ${parent_check_firstLine(list.stderr) || `exit ${list.exitCode}`}`,
            };
        for (const line of list.stdout.split('\n')) {
            const [commit, ...parents] = line.split(' ');
            if (commit)
                graph.set(commit, parents);
        }
        return graph;
    };
    // What saves a commit in every parent first. Only when that leaves a commit unsaved (or the parent lacks
    // one) is the configuration read: a parent with no remote counts its branches too, walked again. Where
    // every commit named is itself what a remote-tracking ref or tag names (read as data: a stale
    // sandbox's branch that was pushed as it is, or a HEAD at origin's), nothing is left to walk.
    const lacking = objects.some((oid) => types.get(oid) === 'missing');
    let unsavedGraph = atSavingTips(parent, walkable, types, lacking)
        ? new Map()
        : await unsavedFrom(ALWAYS_SAVING);
    let hasRemote;
    if (!('error' in unsavedGraph) && (unsavedGraph.size > 0 || lacking)) {
        const saved = await savedRefs(git, parent.path);
        hasRemote = saved.hasRemote;
        if (!saved.hasRemote)
            unsavedGraph = await unsavedFrom(saved.revs);
    }
    if ('error' in unsavedGraph) {
        for (const s of valid)
            verdicts.set(s.key, { error: unsavedGraph.error });
        return { verdicts, read };
    }
    const peeled = await peelTags(git, parent, walkable.filter((oid) => types.get(oid) === 'tag'));
    for (const s of valid) {
        const verdict = {
            headTree: types.get(s.headOid) === 'commit' ? trees.get(s.headOid) : undefined,
            hasRemote,
        };
        let missing = 0;
        const tips = [];
        for (const oid of s.named) {
            const type = types.get(oid);
            if (type === 'missing')
                missing++;
            else if (type === 'commit')
                tips.push(oid);
            else if (type === 'tag') {
                const commit = peeled.get(oid);
                if (commit === undefined)
                    verdict.error ??= `a tag it names (${oid.slice(0, 12)}) could not be followed`;
                else
                    tips.push(commit);
            }
            else
                verdict.error ??= `a ref names ${oid.slice(0, 12)}, which is ${type === 'odd' ? 'not understood' : `a ${type}`}`;
        }
        const counted = countReachable(unsavedGraph, tips, MAX_COUNTED);
        // A commit the parent lacks is unsaved, and what it reaches cannot be counted: a lower bound.
        if (counted.count + missing > 0)
            verdict.unsaved = {
                count: counted.count + missing,
                ...(counted.stopped || missing > 0 ? { atLeast: true } : {}),
            };
        verdicts.set(s.key, verdict);
    }
    return { verdicts, read };
}
/**
 * The type of each object, and the tree of each head that is a commit. In one `cat-file --batch` when
 * every object (with `alsoRead`'s) is within OBJECT_MAX: a commit's content names its tree. Otherwise
 * (a larger object named, git's answer not understood), `--batch-check` answers without content, and
 * `alsoRead` is left to the caller.
 */
async function objectFacts(git, parent, objects, heads, alsoRead) {
    const types = new Map();
    const trees = new Map();
    const oids = [...new Set([...objects, ...heads])];
    const atOnce = await git.readSmallObjects(parent.path, [...new Set([...oids, ...alsoRead])], OBJECT_MAX);
    if (atOnce) {
        for (const oid of oids) {
            const object = atOnce.get(oid);
            types.set(oid, object === null ? 'missing' : object?.oid === oid ? object.type : 'odd');
            if (object?.type !== 'commit')
                continue;
            const tree = /^tree ([0-9a-f]+)\n/.exec(object.body.toString('latin1', 0, 100))?.[1];
            if (tree && OID.test(tree))
                trees.set(oid, tree);
        }
        return { types, trees, read: new Map(alsoRead.map((name) => [name, atOnce.get(name) ?? null])) };
    }
    const asked = [...objects, ...heads.map((h) => `${h}^{tree}`)];
    const found = await git.exec(parent.path, ['cat-file', '--batch-check'], {
        input: Buffer.from(`${asked.join('\n')}\n`),
    });
    const lines = found.stdout.split('\n');
    if (found.exitCode !== 0 || lines.length < asked.length)
        return {
            error: `git cat-file failed in the parent: ${parent_check_firstLine(found.stderr) || `exit ${found.exitCode}`}`,
        };
    objects.forEach((oid, i) => types.set(oid, batchType(lines[i], oid)));
    heads.forEach((head, i) => {
        const [tree, type] = lines[objects.length + i].split(' ');
        if (type === 'tree' && OID.test(tree))
            trees.set(head, tree);
    });
    return { types, trees };
}
/** True when every object to walk is a commit that the parent's remote-tracking refs or tags name. */
function atSavingTips(parent, walkable, types, lacking) {
    if (lacking || !walkable.length || walkable.some((oid) => types.get(oid) !== 'commit'))
        return false;
    const tips = readSavingTips(parent.gitDir);
    return !!tips && walkable.every((oid) => tips.has(oid));
}
/**
 * The commits of `graph` (commit to parents: the unsaved commits, closed under their unsaved parents) that
 * `tips` reach, counted up to `limit`.
 */
function countReachable(graph, tips, limit) {
    const seen = new Set();
    const pending = tips.filter((t) => graph.has(t));
    while (pending.length) {
        const commit = pending.pop();
        if (seen.has(commit))
            continue;
        if (seen.size >= limit)
            return { count: seen.size, stopped: true };
        seen.add(commit);
        for (const p of graph.get(commit) ?? [])
            if (graph.has(p) && !seen.has(p))
                pending.push(p);
    }
    return { count: seen.size, stopped: false };
}
/** `<oid> <type> <size>` or `<oid> missing`. */
function batchType(line, oid) {
    const [name, type] = (line ?? '').split(' ');
    if (type === 'missing')
        return 'missing';
    if (name !== oid || !type)
        return 'odd';
    return type;
}
/**
 * rev-list peels a tag to its commit and prints the commit: the commits annotated tags point to. A tag
 * that does not end at a commit (a tagged tree or blob) gets no entry.
 */
async function peelTags(git, parent, tags) {
    const peeled = new Map();
    if (tags.length === 0)
        return peeled;
    const out = await git.exec(parent.path, ['cat-file', '--batch-check'], {
        input: Buffer.from(`${tags.map((t) => `${t}^{commit}`).join('\n')}\n`),
    });
    if (out.exitCode !== 0)
        return peeled;
    out.stdout
        .split('\n')
        .slice(0, tags.length)
        .forEach((line, i) => {
        const [commit, type] = line.split(' ');
        if (type === 'commit' && OID.test(commit))
            peeled.set(tags[i], commit);
    });
    return peeled;
}
function parent_check_firstLine(text) {
    return text.trim().split('\n')[0] ?? '';
}

;// CONCATENATED MODULE: ./src/reap/work.ts











/** Parents checked at once (each: two or three git processes, a helper container when one is needed). */
const work_PARENTS_IN_FLIGHT = 4;
/** Checks registered sandboxes of live parents; returns a report per sandbox key. */
async function checkWork(sandboxes, deps) {
    const reports = new Map();
    const byParent = new Map();
    for (const s of sandboxes) {
        if (!s.parent || !isCheckable(s))
            continue;
        const early = earlyFinding(s);
        if (early) {
            reports.set(s.key, { work: early });
            continue;
        }
        const group = byParent.get(s.parent.gitDir) ?? { parent: s.parent, sandboxes: [] };
        group.sandboxes.push(s);
        byParent.set(s.parent.gitDir, group);
    }
    // A few parents at a time: one's git or helper container runs while another's files are read.
    await inParallel([...byParent.values()], work_PARENTS_IN_FLIGHT, async ({ parent, sandboxes: group }) => {
        const found = await checkSplittingFailures(parent, group, deps);
        for (const [key, report] of found)
            reports.set(key, report);
    });
    return reports;
}
/**
 * A parent's sandboxes checked together; when that fails, each half again, down to the one sandbox that
 * fails alone: it is reported unknown (so kept) with the reason, and every other gets its real verdict.
 */
async function checkSplittingFailures(parent, group, deps) {
    try {
        return await checkParentGroup(parent, group, deps);
    }
    catch (error) {
        if (group.length === 1) {
            const detail = `its check failed: ${JSON.stringify(error.message)}`;
            return new Map([[group[0].key, { work: { state: 'unknown', detail } }]]);
        }
        const half = Math.ceil(group.length / 2);
        const first = await checkSplittingFailures(parent, group.slice(0, half), deps);
        const second = await checkSplittingFailures(parent, group.slice(half), deps);
        return new Map([...first, ...second]);
    }
}
/** What is decided without a look inside: a half-made sandbox, a suspicious or broken one. */
function earlyFinding(s) {
    // The command never ran in a sandbox whose creation was interrupted (creation comes first).
    if (s.recorded === 'creating')
        return { state: 'clean' };
    if (s.suspicious)
        return { state: 'unknown', detail: `suspicious: ${s.suspicious}` };
    if (s.broken)
        return { state: 'unknown', detail: s.broken };
    return undefined;
}
async function checkParentGroup(parent, group, deps) {
    const volumes = group.filter((s) => s.volume);
    const disks = group.filter((s) => s.hostPath);
    const inspected = volumes.length
        ? await inspectInHelpers(deps.engine, deps.image, parent, volumes.map((s) => request(s, { size: true })))
        : new Map();
    // A linked worktree's branch is resolved in the parent.
    const histories = await diskHistories(disks, parent, deps.git);
    for (const s of volumes) {
        const work = inspected.get(s.key)?.work;
        histories.set(s.key, !work
            ? { error: inspected.get(s.key)?.error ?? 'the volume was not inspected' }
            : 'error' in work
                ? work
                : { ...work, headRef: s.headRef });
    }
    const named = [];
    for (const [key, h] of histories)
        if (!('error' in h))
            named.push({ key, headOid: h.headOid, named: h.named });
    // Disk: the filesystem proves clean where it can, against the tree the index records: its untracked
    // entries say which of HEAD's .gitignore files the parent reads beside its answer (one git process).
    const proofs = new Map();
    const gitignores = new Set();
    for (const s of disks) {
        const history = histories.get(s.key);
        if (!history || 'error' in history)
            continue;
        const indexed = proofOf(s.hostPath, gitDirOf(s), history.headOid.length / 2);
        if (!indexed)
            continue;
        proofs.set(s.key, indexed);
        const { proof, rootTree } = indexed;
        if (rootTree && !proof.clean && proof.untracked)
            for (const name of gitignoreNames(rootTree, proof.untracked))
                gitignores.add(name);
    }
    const { verdicts, read } = await checkAgainstParent(deps.git, parent, named, [...gitignores]);
    // The proofs stand where the index's tree is HEAD's; untracked entries are judged with the parent's
    // ignore rules; the rest goes to one helper.
    const uncommitted = new Map();
    const proved = new Set();
    const unsure = [];
    const questions = [];
    for (const s of disks) {
        const verdict = verdicts.get(s.key);
        if (!verdict || verdict.error || verdict.unsaved)
            continue; // work found or check failed: no need
        const indexed = proofs.get(s.key);
        const proof = verdict.headTree && indexed ? matchHeadTree(indexed, verdict.headTree) : undefined;
        if (proof?.clean) {
            uncommitted.set(s.key, { value: 0 });
            proved.add(s.key);
        }
        else if (proof?.untracked)
            questions.push({
                key: s.key,
                worktree: s.hostPath,
                gitDir: gitDirOf(s),
                headTree: verdict.headTree,
                untracked: proof.untracked,
            });
        else
            unsure.push(s);
    }
    if (questions.length) {
        const judged = await judgeUntrackedInParent(deps.git, parent, questions, read);
        for (const s of disks) {
            const verdict = judged.get(s.key);
            if (!verdict)
                continue;
            if ('unsure' in verdict)
                unsure.push(s);
            else {
                uncommitted.set(s.key, { value: verdict.ignoredOnly ? 0 : verdict.untracked });
                if (verdict.ignoredOnly)
                    proved.add(s.key);
            }
        }
    }
    const refused = unsure.length ? await deps.diskHelpersRefused?.() : undefined;
    if (refused) {
        for (const s of unsure)
            uncommitted.set(s.key, { error: `not inspected: ${refused}` });
    }
    else if (unsure.length) {
        const looked = await inspectInHelpers(deps.engine, deps.image, parent, unsure.map((s) => request(s, { headOid: histories.get(s.key).headOid })));
        for (const s of unsure) {
            const work = looked.get(s.key)?.work;
            uncommitted.set(s.key, work && !('error' in work)
                ? work.uncommitted
                : { error: work?.error ?? looked.get(s.key)?.error ?? 'not inspected' });
        }
    }
    for (const s of volumes) {
        const work = inspected.get(s.key)?.work;
        if (work && !('error' in work))
            uncommitted.set(s.key, work.uncommitted);
    }
    const reports = new Map();
    for (const s of group) {
        const history = histories.get(s.key);
        const work = finding(history, verdicts.get(s.key), uncommitted.get(s.key));
        reports.set(s.key, {
            work,
            sizeBytes: inspected.get(s.key)?.sizeBytes,
            provedByFilesystem: proved.has(s.key) || undefined,
        });
    }
    return reports;
}
/** A sandbox's git folder read as data; what throws (a trap in its folders) is that sandbox's error. */
function readGuarded(read) {
    try {
        return read();
    }
    catch (error) {
        return { ok: false, error: `its .git could not be read: ${sandboxText(error.message, 500)}` };
    }
}
/** The filesystem's proof; a walk that throws proves nothing (the helper looks instead). */
function proofOf(worktree, gitDir, hashBytes) {
    try {
        return proveAgainstIndex(worktree, gitDir, hashBytes);
    }
    catch {
        return undefined;
    }
}
function request(s, extra) {
    const { headOid, ...rest } = extra;
    const target = s.volume
        ? { volume: s.volume, name: s.sandbox }
        : s.linked
            ? { hostPath: s.hostPath, gitDir: s.linked.adminDir, headOid: headOid }
            : { hostPath: s.hostPath };
    return { key: s.key, target, work: true, ...rest };
}
/**
 * HEAD and refs of disk sandboxes, read as data from their git folders (a linked worktree's from its
 * registration); a linked worktree's branch is the parent's, resolved there in one git process.
 */
async function diskHistories(disks, parent, git) {
    const histories = new Map();
    const reads = disks.map((s) => {
        const gitDir = gitDirOf(s);
        return {
            s,
            gitDir,
            read: readGuarded(() => (s.linked ? readLinkedGit(gitDir) : readSandboxGit(gitDir))),
        };
    });
    const branches = reads.flatMap(({ read }) => read.ok && !read.headOid && read.headRef ? [read.headRef] : []);
    const tips = await branchTips(git, parent, [...new Set(branches)]);
    for (const { s, gitDir, read } of reads) {
        if (!read.ok) {
            histories.set(s.key, { error: read.error });
            continue;
        }
        let headOid = read.headOid;
        if (!headOid && read.headRef) {
            if ('error' in tips) {
                histories.set(s.key, { error: tips.error });
                continue;
            }
            headOid = tips.get(read.headRef);
            if (!headOid) {
                histories.set(s.key, { error: `HEAD names ${read.headRef}, which the parent does not have` });
                continue;
            }
        }
        histories.set(s.key, {
            headOid: headOid,
            named: [...new Set([headOid, ...read.named])],
            operation: operationInProgress(gitDir),
            headRef: read.headRef,
        });
    }
    return histories;
}
function finding(history, verdict, uncommitted) {
    if ('error' in history)
        return summarizeWork({ uncommitted: { error: history.error }, unsaved: { error: history.error } });
    const unsaved = !verdict
        ? { error: 'the parent was not asked' }
        : verdict.error
            ? { error: verdict.error }
            : {
                value: verdict.unsaved && {
                    ...verdict.unsaved,
                    branch: branchOf(history.headRef),
                    hasRemote: verdict.hasRemote !== false,
                },
            };
    return summarizeWork({
        operation: history.operation,
        uncommitted: uncommitted ?? { error: 'not checked' },
        unsaved,
    });
}

;// CONCATENATED MODULE: ./src/reap/look-closer.ts














/** The tools, then the scan in a log group of its own (`tell`: with a line that says what it found). */
async function openReaper(options, ui, { tell = false, tools } = {}) {
    const engine = tools?.engine ?? (0,engine_engine/* createEngine */.P)(options.engine);
    const helperImage = helperImageOnDemand(engine);
    const git = tools?.git ?? (await createGit());
    const scan = await ui.group('Scan', async () => {
        const started = Date.now();
        const found = await scanSandboxes({
            worktreeRoot: options.worktreeRoot,
            volumePrefix: options.volumePrefix,
            git,
            engine,
            image: helperImage,
        });
        if (tell)
            ui.info(`Found ${found.sandboxes.length} entries under ${found.root} and in volumes ${options.volumePrefix}-* (${((Date.now() - started) / 1000).toFixed(2)} s).`);
        return found;
    });
    return {
        git,
        engine,
        helperImage,
        scan,
        diskHelpersRefused: await helpersRefusal(engine, helperImage, scan, ui),
    };
}
/**
 * Does the engine see the root where the reaper does? Where the action's own mounts say no, at once;
 * else proved once, before the first helper binds a disk sandbox (most reaps of disk sandboxes start
 * none). If not, one warning says so, and the disk sandboxes only a helper could judge are kept, not
 * inspected.
 */
async function helpersRefusal(engine, image, scan, ui) {
    const warnUnseen = (unseen) => {
        if (!unseen)
            return undefined;
        ui.warning(`${unseen} Disk sandboxes that only a helper container could judge are kept, not inspected; the rest is handled as usual.`);
        return `the ${engine.name} engine does not see the worktree-root ${scan.root} (see the warning)`;
    };
    const outOfView = warnUnseen(await rootOutOfView(engine, scan));
    let refusal;
    return () => (refusal ??= outOfView ? Promise.resolve(outOfView) : rootUnproven(engine, image, scan).then(warnUnseen));
}
const REAP_ROOT_FIX = "Run the reap job where the runs that made the sandboxes ran, with the same worktree-root, in a folder the engine shares with the action (a job container: under the runner's work folder, /__w; Actions Runner Controller in Docker-in-Docker mode: under /home/runner/_work)";
/**
 * Whether the engine sees the worktree root where the reaper does, as a run checks its folders, in two
 * steps. `rootOutOfView` first, with no engine call on a plain host (host-paths.ts): in a job container
 * the root must lie under one of its mounts. `rootUnproven` before the first helper binds a disk sandbox
 * (the probe of engine-probe.ts: a Docker-in-Docker engine must share the root, a remote engine never
 * does). Each: undefined when it does, or when the scan found no disk sandbox; else why not, naming the
 * root and the fix.
 */
async function rootOutOfView(engine, scan) {
    if (!scan.sandboxes.some((s) => s.hostPath))
        return undefined;
    return rootCheck(engine, scan, async (root) => (0,host_paths/* requireVisible */.Qe)(await engine.hostView(), [root]));
}
async function rootUnproven(engine, image, scan) {
    if (!scan.sandboxes.some((s) => s.hostPath))
        return undefined;
    // An image that cannot be made is no answer about the root: each helper that needs it says why.
    const made = await image().catch(() => undefined);
    if (!made)
        return undefined;
    return rootCheck(engine, scan, async (root) => {
        await (await probeEngineView(engine, made, [root])).remove();
    });
}
async function rootCheck(engine, scan, check) {
    try {
        await check({ path: scan.root, what: 'worktree-root', fix: REAP_ROOT_FIX });
        return undefined;
    }
    catch (error) {
        if (error instanceof host_paths/* HostPathError */.mL)
            return error.message;
        return `The ${engine.name} engine could not be shown to see the worktree-root ${scan.root} (${error.message}). ${REAP_ROOT_FIX}.`;
    }
}
/** The facts a decision needs that the scan already has (in use, work and size come from `lookCloser`). */
function factsOf(s) {
    return {
        key: s.key,
        sandbox: s.sandbox,
        project: s.project,
        isolation: s.isolation,
        where: s.where,
        notSandbox: s.notSandbox,
        orphan: s.orphan,
        lastActivityMs: s.lastActivityMs,
    };
}
/**
 * In use? Holding work? How big? Asked in batches; the reaper asks it of the stale sandboxes only, the
 * CLI's `list` of all of them and `rm` of one.
 */
async function lookCloser(stale, facts, 
/** `usage`: the containers' and processes' use, when the caller asked already (`observeUsage`). */
deps) {
    if (stale.length === 0)
        return new Map();
    // Before any work check: those start helper containers of their own, which use the volumes.
    const usage = await (deps.usage ?? observeUsage(deps.engine));
    // A sandbox whose use cannot be told is taken for in use (kept), and the others go on.
    const reasons = await inParallel(stale, 16, (s) => inUseReason(s, usage).catch((error) => `its use could not be told: ${JSON.stringify(error.message)}`));
    const free = stale.filter((s, i) => {
        facts.get(s.key).inUse = reasons[i];
        return !reasons[i];
    });
    const checkable = free.filter(isCheckable);
    for (const s of free) {
        if (!s.orphan && !isCheckable(s))
            facts.get(s.key).work = {
                state: 'unknown',
                detail: `unregistered: ${s.unregistered ?? 'its parent holds no record of it'}`,
            };
    }
    const reports = await checkWork(checkable, deps);
    for (const [key, report] of reports) {
        facts.get(key).work = report.work;
        if (report.sizeBytes !== undefined)
            facts.get(key).sizeBytes = report.sizeBytes;
    }
    // Sizes: disk sandboxes that will not be removed now (removal measures the rest); volumes not seen yet.
    for (const s of stale) {
        const f = facts.get(s.key);
        if (s.hostPath && (f.inUse || (f.work && f.work.state !== 'clean')))
            f.sizeBytes = measureTree(s.hostPath);
    }
    const unseen = stale.filter((s) => s.volume && facts.get(s.key).sizeBytes === undefined);
    if (unseen.length) {
        // Sizes are for the report only: a volume that could not be measured stays unmeasured.
        const sizes = await inspectInHelpers(deps.engine, deps.image, undefined, unseen.map((s) => ({ key: s.key, target: { volume: s.volume, name: s.sandbox }, size: true })));
        for (const s of unseen)
            facts.get(s.key).sizeBytes = sizes.get(s.key)?.sizeBytes;
    }
    return reports;
}
async function observeUsage(engine) {
    const usage = { workingDirs: processWorkingDirs() };
    if (!engine)
        return { ...usage, containers: [] };
    try {
        const containers = await engine.listContainers();
        // Bind sources are compared as real paths, like the sandbox paths.
        for (const c of containers)
            c.binds = c.binds.map(realOrSelf);
        return { ...usage, containers };
    }
    catch (error) {
        const message = error.message;
        // No engine installed: no container can be using anything.
        if (/not installed or not on PATH/.test(message))
            return { ...usage, containers: [] };
        return { ...usage, containersError: message };
    }
}
function processWorkingDirs() {
    let pids;
    try {
        pids = external_node_fs_.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
    }
    catch {
        return undefined;
    }
    const dirs = [];
    for (const pid of pids) {
        try {
            dirs.push({ pid: Number(pid), cwd: external_node_fs_.readlinkSync(`/proc/${pid}/cwd`) });
        }
        catch {
            /* gone, or another user's process */
        }
    }
    return dirs;
}
function realOrSelf(p) {
    try {
        return external_node_fs_.realpathSync(p);
    }
    catch {
        return p;
    }
}
const inside = (child, dir) => child === dir || child.startsWith(`${dir}${external_node_path_.sep}`);
/** Why the sandbox is in use, or undefined. A usage that could not be observed counts as "in use". */
async function inUseReason(sandbox, usage) {
    if (sandbox.parent && !sandbox.orphan && (await isSandboxLocked(sandbox.parent.gitDir, sandbox.sandbox)))
        return 'a run holds its lock';
    if (sandbox.linked?.locked)
        return 'its registration is locked (git worktree lock)';
    if (!usage.containers)
        return `the container engine could not be asked (${usage.containersError})`;
    if (sandbox.volume) {
        const users = usage.containers.filter((c) => c.volumes.includes(sandbox.volume));
        const running = users.filter((c) => c.running).map((c) => c.name);
        if (running.length)
            return `running container ${running.join(', ')} mounts it`;
        if (users.length)
            return `stopped container ${users.map((c) => c.name).join(', ')} still references the volume (remove it to let the volume go)`;
        return undefined;
    }
    // The work tree and the command's home: a container or a process in either is using the sandbox.
    const dirs = [sandbox.hostPath, ...(sandbox.homePath ? [sandbox.homePath] : [])];
    const within = (p) => dirs.some((dir) => inside(p, dir));
    const mounting = usage.containers.filter((c) => c.running && c.binds.some(within));
    if (mounting.length)
        return `running container ${mounting.map((c) => c.name).join(', ')} mounts it`;
    if (!usage.workingDirs)
        return 'the working directories of processes cannot be read (no /proc)';
    const process = usage.workingDirs.find((p) => within(p.cwd));
    if (process)
        return `process ${process.pid} has its working directory in it`;
    return undefined;
}

;// CONCATENATED MODULE: ./src/reap/reap.ts
// The reaper, as a story: scan, judge the age of everything found, look closer at the stale only (in
// use? holding work?), decide, then carry out (or, in a dry run, only report). Independent of
// @actions/core: the action and a CLI both drive it through a Ui.









/** The reaper's options from the validated settings (the action and the CLI alike). */
function reapOptionsFrom(settings) {
    const { worktreeRoot, volumePrefix, engine, image, dryRun, maxRemovals, force, archiveDir } = settings;
    return {
        worktreeRoot,
        volumePrefix,
        engine,
        image,
        retention: settings,
        dryRun,
        maxRemovals,
        force,
        archiveDir,
    };
}
async function reap(options, ui = silentUi, tools) {
    const nowMs = options.now ?? Date.now();
    const opened = await openReaper(options, ui, { tell: true, tools });
    const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
    if (!options.dryRun)
        await (0,leftovers/* reportLeftNetworkContainers */.S8)(engine, ui);
    for (const warning of scan.warnings)
        ui.warning(warning);
    const stale = scan.sandboxes.filter((s) => assessStaleness(s, options.retention, nowMs).stale);
    // Which containers use what is asked now, beside the removal of left probes: two engine calls at once.
    const usage = stale.length ? observeUsage(engine) : undefined;
    if (!options.dryRun) {
        const probes = await removeStaleProbes(engine);
        if (probes.length)
            ui.info(`Removed ${probes.length} helper(s) that killed runs left unstarted: ${probes.join(', ')}.`);
    }
    const facts = new Map(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
    const byKey = new Map(scan.sandboxes.map((s) => [s.key, s]));
    const reports = await ui.group(`Look at ${stale.length} stale sandbox(es)`, async () => {
        const started = Date.now();
        const looked = await lookCloser(stale, facts, {
            git,
            engine,
            image: helperImage,
            diskHelpersRefused,
            usage,
        });
        const proved = [...looked.values()].filter((r) => r.provedByFilesystem).length;
        ui.info(`In use, work and size checked (${elapsed(started)}; ${proved} proved clean by the filesystem alone, ${looked.size - proved} looked at by the parent or a helper container).`);
        return looked;
    });
    const decisions = decide([...facts.values()], { ...options, archive: !!options.archiveDir }, nowMs);
    const lookedAt = new Set(stale.map((s) => s.key));
    await ui.group('Decisions', async () => {
        const lines = decisions.map((d) => sandboxText(`${d.action === 'remove' ? (options.dryRun ? 'would remove' : 'remove') : 'keep'} ${d.project}/${d.sandbox} [${d.isolation}, ${d.class}]: ${d.reason}`));
        // A line per decision, in one write; with the facts of each below it when debug lines are shown.
        if (!ui.debugging) {
            if (lines.length)
                ui.info(lines.join('\n'));
        }
        else
            decisions.forEach((d, i) => {
                ui.info(lines[i]);
                ui.debug(decisionTrace(d, facts.get(d.key), lookedAt.has(d.key), options.dryRun));
            });
    });
    const removals = decisions
        .filter((d) => d.action === 'remove')
        .map((decision) => ({ decision, sandbox: byKey.get(decision.key) }));
    let outcomes = new Map();
    if (!options.dryRun && removals.length) {
        outcomes = await ui.group(`Remove ${removals.length} sandbox(es)`, async () => {
            const started = Date.now();
            const deps = removalDeps(opened, {
                archiveDir: options.archiveDir,
                now: new Date(nowMs),
                log: (line) => ui.info(line),
            });
            const done = await carryOut(removals, deps);
            ui.info(`Done in ${elapsed(started)}.`);
            return done;
        });
    }
    else if (options.dryRun) {
        for (const { decision, sandbox } of removals)
            if (decision.sizeBytes === undefined && sandbox.hostPath)
                decision.sizeBytes = measureTree(sandbox.hostPath);
    }
    const sandboxes = decisions.map((d) => report(d, options.dryRun, outcomes.get(d.key)));
    const freedBytes = sandboxes.reduce((sum, s) => sum + (options.dryRun ? (s.result === 'would remove' ? (s.sizeBytes ?? 0) : 0) : (s.freedBytes ?? 0)), 0);
    return {
        dryRun: options.dryRun,
        sandboxes,
        freedBytes,
        warnings: scan.warnings,
        stats: {
            found: scan.sandboxes.length,
            stale: stale.length,
            provedByFilesystem: [...reports.values()].filter((r) => r.provedByFilesystem).length,
        },
    };
}
function elapsed(started, ended = Date.now()) {
    return `${((ended - started) / 1000).toFixed(2)} s`;
}
function report(d, dryRun, outcome) {
    if (d.action !== 'remove')
        return { ...d, result: 'kept' };
    if (dryRun)
        return { ...d, result: 'would remove' };
    if (!outcome)
        return { ...d, result: 'kept', detail: 'not attempted' };
    const base = {
        ...d,
        sizeBytes: d.sizeBytes ?? (d.isolation === 'disk' ? outcome.freedBytes : undefined),
        freedBytes: outcome.freedBytes,
        archived: outcome.archived,
        problems: outcome.problems,
        detail: outcome.detail,
    };
    if (outcome.status === 'removed')
        return { ...base, result: 'removed' };
    if (outcome.status === 'partly removed')
        return { ...base, result: 'partly removed' };
    if (outcome.status === 'not removed')
        return { ...base, result: 'kept', failed: true };
    return { ...base, result: 'kept' };
}
/** What carrying out removals needs, from what the reaper opened with. */
function removalDeps(opened, options) {
    const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
    return {
        git,
        engine,
        image: helperImage,
        root: scan.root,
        diskHelpersRefused,
        ...options,
    };
}

;// CONCATENATED MODULE: ./src/cli/listing.ts
// The reaper's view of every sandbox on the machine, for `worktree-sandbox list`: the reaper's own scan,
// facts and decisions (a dry run), except that every sandbox is looked at closely (in use? holding work?
// how big?), not only the stale ones. Nothing is removed and nothing is written: the checks are the
// reaper's read-only ones, so a listing never moves an activity signal.
// What it says of each sandbox (sandboxState, removalOutlook) is pure: read off the reaper's own facts
// and decision, and for a fresh sandbox the same gates applied as if it were stale.








async function listSandboxes(options, ui = silentUi) {
    const nowMs = options.now ?? Date.now();
    const { git, engine, helperImage, scan, diskHelpersRefused } = await openReaper(options, ui);
    for (const warning of scan.warnings)
        ui.warning(warning);
    const sandboxes = scan.sandboxes.filter((s) => !s.notSandbox);
    const facts = new Map(scan.sandboxes.map((s) => [s.key, factsOf(s)]));
    await ui.group(`Look at ${sandboxes.length} sandbox(es)`, async () => {
        await lookCloser(sandboxes, facts, { git, engine, image: helperImage, diskHelpersRefused });
        // The reaper leaves clean disk sandboxes unmeasured (removal measures them); a listing shows all.
        for (const s of sandboxes) {
            const f = facts.get(s.key);
            if (f.sizeBytes === undefined && s.hostPath)
                f.sizeBytes = measureTree(s.hostPath);
        }
    });
    const policy = {
        retention: options.retention,
        force: false,
        archive: false,
        maxRemovals: 0,
    };
    const decisions = new Map(decide([...facts.values()], policy, nowMs).map((d) => [d.key, d]));
    return {
        root: scan.root,
        sandboxes: scan.sandboxes.map((s) => ({
            scanned: s,
            facts: facts.get(s.key),
            decision: decisions.get(s.key),
            branch: listing_branchOf(s),
        })),
        warnings: scan.warnings,
        nowMs,
        policy,
    };
}
/** The branch from the sandbox's HEAD (read as data: on the host for disk, by the scan's helper for volumes), else its label. */
function listing_branchOf(s) {
    if (s.notSandbox)
        return undefined;
    let ref = s.headRef;
    if (s.hostPath) {
        const file = readBounded(external_node_path_.join(gitDirOf(s), 'HEAD'), 1024);
        const head = 'data' in file ? parseHead(file.data.toString('utf8')) : undefined;
        ref = head && 'ref' in head ? head.ref : undefined;
        if (!ref)
            return undefined;
    }
    if (ref)
        return ref.startsWith('refs/heads/') ? ref.slice(11) : undefined;
    return s.branchLabel || undefined;
}
/**
 * In use first (whatever else holds, nothing touches it), then orphan (git can check nothing), then work.
 * A check for work that could not run is shown as holding work, because the reaper treats it so.
 */
function sandboxState(facts) {
    if (facts.notSandbox)
        return { state: 'not a sandbox', detail: facts.notSandbox };
    if (facts.inUse)
        return { state: 'in use', detail: facts.inUse };
    if (facts.orphan)
        return { state: 'orphan', detail: facts.orphan };
    const work = facts.work;
    if (work?.state === 'clean')
        return { state: 'clean' };
    if (work?.state === 'work')
        return { state: 'holds work', detail: work.detail };
    const why = work && 'detail' in work ? work.detail : 'it was not checked';
    return { state: 'holds work', detail: `the check for work could not run (${why})` };
}
function removalOutlook(facts, decision, policy, nowMs) {
    if (facts.notSandbox)
        return { when: 'never', reason: decision.reason };
    if (decision.action === 'remove')
        return { when: 'next reap', reason: decision.reason };
    const staleness = assessStaleness(facts, policy.retention, nowMs);
    if (staleness.stale || facts.lastActivityMs === undefined || staleness.expiryDays === undefined)
        return { when: 'kept', reason: decision.reason };
    const verdict = applyGates(gateFactsOf(facts), { ...policy, force: false });
    if (!verdict.remove)
        return { when: 'kept', reason: verdict.reason };
    return {
        when: 'after',
        afterMs: facts.lastActivityMs + staleness.expiryDays * DAY_MS,
        reason: facts.orphan
            ? `${decision.reason}; removed then unless in use (an orphan's work cannot be checked)`
            : `${decision.reason}; removed then if unused and without work`,
    };
}

;// CONCATENATED MODULE: ./src/cli/table.ts
// Plain text tables for a terminal or a log: columns padded to their widest cell, the last one left
// ragged (reasons are long). Cells are made single-line, so one row is always one line.
function formatTable(headers, rows) {
    const clean = (cell) => cell.replace(/\s+/g, ' ').trim();
    const all = [headers, ...rows].map((row) => row.map(clean));
    const widths = headers.map((_, i) => Math.max(...all.map((row) => width(row[i] ?? ''))));
    return all
        .map((row) => row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - width(cell))))
        .join('  ')
        .trimEnd())
        .join('\n');
}
/** Characters as a terminal counts them (code points; the names and reasons here are not East Asian). */
function width(text) {
    return [...text].length;
}
/** Whole days, e.g. `40 d`; `?` when unknown. */
function formatDays(days) {
    return days === undefined || days === null ? '?' : `${days} d`;
}
/** A UTC date, e.g. `2026-09-01`. */
function formatDate(ms) {
    return new Date(ms).toISOString().slice(0, 10);
}

// EXTERNAL MODULE: external "node:process"
var external_node_process_ = __nccwpck_require__(1708);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __nccwpck_require__(7975);
;// CONCATENATED MODULE: ./node_modules/ora/node_modules/chalk/source/vendor/ansi-styles/index.js
const ANSI_BACKGROUND_OFFSET = 10;

const wrapAnsi16 = (offset = 0) => code => `\u001B[${code + offset}m`;

const wrapAnsi256 = (offset = 0) => code => `\u001B[${38 + offset};5;${code}m`;

const wrapAnsi16m = (offset = 0) => (red, green, blue) => `\u001B[${38 + offset};2;${red};${green};${blue}m`;

const styles = {
	modifier: {
		reset: [0, 0],
		// 21 isn't widely supported and 22 does the same thing
		bold: [1, 22],
		dim: [2, 22],
		italic: [3, 23],
		underline: [4, 24],
		overline: [53, 55],
		inverse: [7, 27],
		hidden: [8, 28],
		strikethrough: [9, 29],
	},
	color: {
		black: [30, 39],
		red: [31, 39],
		green: [32, 39],
		yellow: [33, 39],
		blue: [34, 39],
		magenta: [35, 39],
		cyan: [36, 39],
		white: [37, 39],

		// Bright color
		blackBright: [90, 39],
		gray: [90, 39], // Alias of `blackBright`
		grey: [90, 39], // Alias of `blackBright`
		redBright: [91, 39],
		greenBright: [92, 39],
		yellowBright: [93, 39],
		blueBright: [94, 39],
		magentaBright: [95, 39],
		cyanBright: [96, 39],
		whiteBright: [97, 39],
	},
	bgColor: {
		bgBlack: [40, 49],
		bgRed: [41, 49],
		bgGreen: [42, 49],
		bgYellow: [43, 49],
		bgBlue: [44, 49],
		bgMagenta: [45, 49],
		bgCyan: [46, 49],
		bgWhite: [47, 49],

		// Bright color
		bgBlackBright: [100, 49],
		bgGray: [100, 49], // Alias of `bgBlackBright`
		bgGrey: [100, 49], // Alias of `bgBlackBright`
		bgRedBright: [101, 49],
		bgGreenBright: [102, 49],
		bgYellowBright: [103, 49],
		bgBlueBright: [104, 49],
		bgMagentaBright: [105, 49],
		bgCyanBright: [106, 49],
		bgWhiteBright: [107, 49],
	},
};

const modifierNames = Object.keys(styles.modifier);
const foregroundColorNames = Object.keys(styles.color);
const backgroundColorNames = Object.keys(styles.bgColor);
const colorNames = [...foregroundColorNames, ...backgroundColorNames];

function assembleStyles() {
	const codes = new Map();

	for (const [groupName, group] of Object.entries(styles)) {
		for (const [styleName, style] of Object.entries(group)) {
			styles[styleName] = {
				open: `\u001B[${style[0]}m`,
				close: `\u001B[${style[1]}m`,
			};

			group[styleName] = styles[styleName];

			codes.set(style[0], style[1]);
		}

		Object.defineProperty(styles, groupName, {
			value: group,
			enumerable: false,
		});
	}

	Object.defineProperty(styles, 'codes', {
		value: codes,
		enumerable: false,
	});

	styles.color.close = '\u001B[39m';
	styles.bgColor.close = '\u001B[49m';

	styles.color.ansi = wrapAnsi16();
	styles.color.ansi256 = wrapAnsi256();
	styles.color.ansi16m = wrapAnsi16m();
	styles.bgColor.ansi = wrapAnsi16(ANSI_BACKGROUND_OFFSET);
	styles.bgColor.ansi256 = wrapAnsi256(ANSI_BACKGROUND_OFFSET);
	styles.bgColor.ansi16m = wrapAnsi16m(ANSI_BACKGROUND_OFFSET);

	// From https://github.com/Qix-/color-convert/blob/3f0e0d4e92e235796ccb17f6e85c72094a651f49/conversions.js
	Object.defineProperties(styles, {
		rgbToAnsi256: {
			value(red, green, blue) {
				// We use the extended greyscale palette here, with the exception of
				// black and white. normal palette only has 4 greyscale shades.
				if (red === green && green === blue) {
					if (red < 8) {
						return 16;
					}

					if (red > 248) {
						return 231;
					}

					return Math.round(((red - 8) / 247) * 24) + 232;
				}

				return 16
					+ (36 * Math.round(red / 255 * 5))
					+ (6 * Math.round(green / 255 * 5))
					+ Math.round(blue / 255 * 5);
			},
			enumerable: false,
		},
		hexToRgb: {
			value(hex) {
				const matches = /[a-f\d]{6}|[a-f\d]{3}/i.exec(hex.toString(16));
				if (!matches) {
					return [0, 0, 0];
				}

				let [colorString] = matches;

				if (colorString.length === 3) {
					colorString = [...colorString].map(character => character + character).join('');
				}

				const integer = Number.parseInt(colorString, 16);

				return [
					/* eslint-disable no-bitwise */
					(integer >> 16) & 0xFF,
					(integer >> 8) & 0xFF,
					integer & 0xFF,
					/* eslint-enable no-bitwise */
				];
			},
			enumerable: false,
		},
		hexToAnsi256: {
			value: hex => styles.rgbToAnsi256(...styles.hexToRgb(hex)),
			enumerable: false,
		},
		ansi256ToAnsi: {
			value(code) {
				if (code < 8) {
					return 30 + code;
				}

				if (code < 16) {
					return 90 + (code - 8);
				}

				let red;
				let green;
				let blue;

				if (code >= 232) {
					red = (((code - 232) * 10) + 8) / 255;
					green = red;
					blue = red;
				} else {
					code -= 16;

					const remainder = code % 36;

					red = Math.floor(code / 36) / 5;
					green = Math.floor(remainder / 6) / 5;
					blue = (remainder % 6) / 5;
				}

				const value = Math.max(red, green, blue) * 2;

				if (value === 0) {
					return 30;
				}

				// eslint-disable-next-line no-bitwise
				let result = 30 + ((Math.round(blue) << 2) | (Math.round(green) << 1) | Math.round(red));

				if (value === 2) {
					result += 60;
				}

				return result;
			},
			enumerable: false,
		},
		rgbToAnsi: {
			value: (red, green, blue) => styles.ansi256ToAnsi(styles.rgbToAnsi256(red, green, blue)),
			enumerable: false,
		},
		hexToAnsi: {
			value: hex => styles.ansi256ToAnsi(styles.hexToAnsi256(hex)),
			enumerable: false,
		},
	});

	return styles;
}

const ansiStyles = assembleStyles();

/* harmony default export */ const ansi_styles = (ansiStyles);

;// CONCATENATED MODULE: external "node:tty"
const external_node_tty_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tty");
;// CONCATENATED MODULE: ./node_modules/ora/node_modules/chalk/source/vendor/supports-color/index.js




// From: https://github.com/sindresorhus/has-flag/blob/main/index.js
/// function hasFlag(flag, argv = globalThis.Deno?.args ?? process.argv) {
function hasFlag(flag, argv = globalThis.Deno ? globalThis.Deno.args : external_node_process_.argv) {
	const prefix = flag.startsWith('-') ? '' : (flag.length === 1 ? '-' : '--');
	const position = argv.indexOf(prefix + flag);
	const terminatorPosition = argv.indexOf('--');
	return position !== -1 && (terminatorPosition === -1 || position < terminatorPosition);
}

const {env} = external_node_process_;

let flagForceColor;
if (
	hasFlag('no-color')
	|| hasFlag('no-colors')
	|| hasFlag('color=false')
	|| hasFlag('color=never')
) {
	flagForceColor = 0;
} else if (
	hasFlag('color')
	|| hasFlag('colors')
	|| hasFlag('color=true')
	|| hasFlag('color=always')
) {
	flagForceColor = 1;
}

function envForceColor() {
	if ('FORCE_COLOR' in env) {
		if (env.FORCE_COLOR === 'true') {
			return 1;
		}

		if (env.FORCE_COLOR === 'false') {
			return 0;
		}

		return env.FORCE_COLOR.length === 0 ? 1 : Math.min(Number.parseInt(env.FORCE_COLOR, 10), 3);
	}
}

function translateLevel(level) {
	if (level === 0) {
		return false;
	}

	return {
		level,
		hasBasic: true,
		has256: level >= 2,
		has16m: level >= 3,
	};
}

function _supportsColor(haveStream, {streamIsTTY, sniffFlags = true} = {}) {
	const noFlagForceColor = envForceColor();
	if (noFlagForceColor !== undefined) {
		flagForceColor = noFlagForceColor;
	}

	const forceColor = sniffFlags ? flagForceColor : noFlagForceColor;

	if (forceColor === 0) {
		return 0;
	}

	if (sniffFlags) {
		if (hasFlag('color=16m')
			|| hasFlag('color=full')
			|| hasFlag('color=truecolor')) {
			return 3;
		}

		if (hasFlag('color=256')) {
			return 2;
		}
	}

	// Check for Azure DevOps pipelines.
	// Has to be above the `!streamIsTTY` check.
	if ('TF_BUILD' in env && 'AGENT_NAME' in env) {
		return 1;
	}

	if (haveStream && !streamIsTTY && forceColor === undefined) {
		return 0;
	}

	const min = forceColor || 0;

	if (env.TERM === 'dumb') {
		return min;
	}

	if (external_node_process_.platform === 'win32') {
		// Windows 10 build 10586 is the first Windows release that supports 256 colors.
		// Windows 10 build 14931 is the first release that supports 16m/TrueColor.
		const osRelease = external_node_os_.release().split('.');
		if (
			Number(osRelease[0]) >= 10
			&& Number(osRelease[2]) >= 10_586
		) {
			return Number(osRelease[2]) >= 14_931 ? 3 : 2;
		}

		return 1;
	}

	if ('CI' in env) {
		if (['GITHUB_ACTIONS', 'GITEA_ACTIONS', 'CIRCLECI'].some(key => key in env)) {
			return 3;
		}

		if (['TRAVIS', 'APPVEYOR', 'GITLAB_CI', 'BUILDKITE', 'DRONE'].some(sign => sign in env) || env.CI_NAME === 'codeship') {
			return 1;
		}

		return min;
	}

	if ('TEAMCITY_VERSION' in env) {
		return /^(9\.(0*[1-9]\d*)\.|\d{2,}\.)/.test(env.TEAMCITY_VERSION) ? 1 : 0;
	}

	if (env.COLORTERM === 'truecolor') {
		return 3;
	}

	if (env.TERM === 'xterm-kitty') {
		return 3;
	}

	if (env.TERM === 'xterm-ghostty') {
		return 3;
	}

	if (env.TERM === 'wezterm') {
		return 3;
	}

	if ('TERM_PROGRAM' in env) {
		const version = Number.parseInt((env.TERM_PROGRAM_VERSION || '').split('.')[0], 10);

		switch (env.TERM_PROGRAM) {
			case 'iTerm.app': {
				return version >= 3 ? 3 : 2;
			}

			case 'Apple_Terminal': {
				return 2;
			}
			// No default
		}
	}

	if (/-256(color)?$/i.test(env.TERM)) {
		return 2;
	}

	if (/^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(env.TERM)) {
		return 1;
	}

	if ('COLORTERM' in env) {
		return 1;
	}

	return min;
}

function createSupportsColor(stream, options = {}) {
	const level = _supportsColor(stream, {
		streamIsTTY: stream && stream.isTTY,
		...options,
	});

	return translateLevel(level);
}

const supportsColor = {
	stdout: createSupportsColor({isTTY: external_node_tty_namespaceObject.isatty(1)}),
	stderr: createSupportsColor({isTTY: external_node_tty_namespaceObject.isatty(2)}),
};

/* harmony default export */ const supports_color = (supportsColor);

;// CONCATENATED MODULE: ./node_modules/ora/node_modules/chalk/source/utilities.js
// TODO: When targeting Node.js 16, use `String.prototype.replaceAll`.
function stringReplaceAll(string, substring, replacer) {
	let index = string.indexOf(substring);
	if (index === -1) {
		return string;
	}

	const substringLength = substring.length;
	let endIndex = 0;
	let returnValue = '';
	do {
		returnValue += string.slice(endIndex, index) + substring + replacer;
		endIndex = index + substringLength;
		index = string.indexOf(substring, endIndex);
	} while (index !== -1);

	returnValue += string.slice(endIndex);
	return returnValue;
}

function stringEncaseCRLFWithFirstIndex(string, prefix, postfix, index) {
	let endIndex = 0;
	let returnValue = '';
	do {
		const gotCR = string[index - 1] === '\r';
		returnValue += string.slice(endIndex, (gotCR ? index - 1 : index)) + prefix + (gotCR ? '\r\n' : '\n') + postfix;
		endIndex = index + 1;
		index = string.indexOf('\n', endIndex);
	} while (index !== -1);

	returnValue += string.slice(endIndex);
	return returnValue;
}

;// CONCATENATED MODULE: ./node_modules/ora/node_modules/chalk/source/index.js




const {stdout: stdoutColor, stderr: stderrColor} = supports_color;

const GENERATOR = Symbol('GENERATOR');
const STYLER = Symbol('STYLER');
const IS_EMPTY = Symbol('IS_EMPTY');

// `supportsColor.level` → `ansiStyles.color[name]` mapping
const levelMapping = [
	'ansi',
	'ansi',
	'ansi256',
	'ansi16m',
];

const source_styles = Object.create(null);

const applyOptions = (object, options = {}) => {
	if (options.level && !(Number.isInteger(options.level) && options.level >= 0 && options.level <= 3)) {
		throw new Error('The `level` option should be an integer from 0 to 3');
	}

	// Detect level if not set manually
	const colorLevel = stdoutColor ? stdoutColor.level : 0;
	object.level = options.level === undefined ? colorLevel : options.level;
};

class Chalk {
	constructor(options) {
		// eslint-disable-next-line no-constructor-return
		return chalkFactory(options);
	}
}

const chalkFactory = options => {
	const chalk = (...strings) => strings.join(' ');
	applyOptions(chalk, options);

	Object.setPrototypeOf(chalk, createChalk.prototype);

	return chalk;
};

function createChalk(options) {
	return chalkFactory(options);
}

Object.setPrototypeOf(createChalk.prototype, Function.prototype);

for (const [styleName, style] of Object.entries(ansi_styles)) {
	source_styles[styleName] = {
		get() {
			const builder = createBuilder(this, createStyler(style.open, style.close, this[STYLER]), this[IS_EMPTY]);
			Object.defineProperty(this, styleName, {value: builder});
			return builder;
		},
	};
}

source_styles.visible = {
	get() {
		const builder = createBuilder(this, this[STYLER], true);
		Object.defineProperty(this, 'visible', {value: builder});
		return builder;
	},
};

const getModelAnsi = (model, level, type, ...arguments_) => {
	if (model === 'rgb') {
		if (level === 'ansi16m') {
			return ansi_styles[type].ansi16m(...arguments_);
		}

		if (level === 'ansi256') {
			return ansi_styles[type].ansi256(ansi_styles.rgbToAnsi256(...arguments_));
		}

		return ansi_styles[type].ansi(ansi_styles.rgbToAnsi(...arguments_));
	}

	if (model === 'hex') {
		return getModelAnsi('rgb', level, type, ...ansi_styles.hexToRgb(...arguments_));
	}

	return ansi_styles[type][model](...arguments_);
};

const usedModels = ['rgb', 'hex', 'ansi256'];

for (const model of usedModels) {
	source_styles[model] = {
		get() {
			const {level} = this;
			return function (...arguments_) {
				const styler = createStyler(getModelAnsi(model, levelMapping[level], 'color', ...arguments_), ansi_styles.color.close, this[STYLER]);
				return createBuilder(this, styler, this[IS_EMPTY]);
			};
		},
	};

	const bgModel = 'bg' + model[0].toUpperCase() + model.slice(1);
	source_styles[bgModel] = {
		get() {
			const {level} = this;
			return function (...arguments_) {
				const styler = createStyler(getModelAnsi(model, levelMapping[level], 'bgColor', ...arguments_), ansi_styles.bgColor.close, this[STYLER]);
				return createBuilder(this, styler, this[IS_EMPTY]);
			};
		},
	};
}

const proto = Object.defineProperties(() => {}, {
	...source_styles,
	level: {
		enumerable: true,
		get() {
			return this[GENERATOR].level;
		},
		set(level) {
			this[GENERATOR].level = level;
		},
	},
});

const createStyler = (open, close, parent) => {
	let openAll;
	let closeAll;
	if (parent === undefined) {
		openAll = open;
		closeAll = close;
	} else {
		openAll = parent.openAll + open;
		closeAll = close + parent.closeAll;
	}

	return {
		open,
		close,
		openAll,
		closeAll,
		parent,
	};
};

const createBuilder = (self, _styler, _isEmpty) => {
	// Single argument is hot path, implicit coercion is faster than anything
	// eslint-disable-next-line no-implicit-coercion
	const builder = (...arguments_) => applyStyle(builder, (arguments_.length === 1) ? ('' + arguments_[0]) : arguments_.join(' '));

	// We alter the prototype because we must return a function, but there is
	// no way to create a function with a different prototype
	Object.setPrototypeOf(builder, proto);

	builder[GENERATOR] = self;
	builder[STYLER] = _styler;
	builder[IS_EMPTY] = _isEmpty;

	return builder;
};

const applyStyle = (self, string) => {
	if (self.level <= 0 || !string) {
		return self[IS_EMPTY] ? '' : string;
	}

	let styler = self[STYLER];

	if (styler === undefined) {
		return string;
	}

	const {openAll, closeAll} = styler;
	if (string.includes('\u001B')) {
		while (styler !== undefined) {
			// Replace any instances already present with a re-opening code
			// otherwise only the part of the string until said closing code
			// will be colored, and the rest will simply be 'plain'.
			string = stringReplaceAll(string, styler.close, styler.open);

			styler = styler.parent;
		}
	}

	// We can move both next actions out of loop, because remaining actions in loop won't have
	// any/visible effect on parts we add here. Close the styling before a linebreak and reopen
	// after next line to fix a bleed issue on macOS: https://github.com/chalk/chalk/pull/92
	const lfIndex = string.indexOf('\n');
	if (lfIndex !== -1) {
		string = stringEncaseCRLFWithFirstIndex(string, closeAll, openAll, lfIndex);
	}

	return openAll + string + closeAll;
};

Object.defineProperties(createChalk.prototype, source_styles);

const chalk = createChalk();
const chalkStderr = createChalk({level: stderrColor ? stderrColor.level : 0});





/* harmony default export */ const source = (chalk);

;// CONCATENATED MODULE: ./node_modules/mimic-function/index.js
const copyProperty = (to, from, property, ignoreNonConfigurable) => {
	// `Function#length` should reflect the parameters of `to` not `from` since we keep its body.
	// `Function#prototype` is non-writable and non-configurable so can never be modified.
	if (property === 'length' || property === 'prototype') {
		return;
	}

	// `Function#arguments` and `Function#caller` should not be copied. They were reported to be present in `Reflect.ownKeys` for some devices in React Native (#41), so we explicitly ignore them here.
	if (property === 'arguments' || property === 'caller') {
		return;
	}

	const toDescriptor = Object.getOwnPropertyDescriptor(to, property);
	const fromDescriptor = Object.getOwnPropertyDescriptor(from, property);

	if (!canCopyProperty(toDescriptor, fromDescriptor) && ignoreNonConfigurable) {
		return;
	}

	Object.defineProperty(to, property, fromDescriptor);
};

// `Object.defineProperty()` throws if the property exists, is not configurable and either:
// - one its descriptors is changed
// - it is non-writable and its value is changed
const canCopyProperty = function (toDescriptor, fromDescriptor) {
	return toDescriptor === undefined || toDescriptor.configurable || (
		toDescriptor.writable === fromDescriptor.writable
		&& toDescriptor.enumerable === fromDescriptor.enumerable
		&& toDescriptor.configurable === fromDescriptor.configurable
		&& (toDescriptor.writable || toDescriptor.value === fromDescriptor.value)
	);
};

const changePrototype = (to, from) => {
	const fromPrototype = Object.getPrototypeOf(from);
	if (fromPrototype === Object.getPrototypeOf(to)) {
		return;
	}

	Object.setPrototypeOf(to, fromPrototype);
};

const wrappedToString = (withName, fromBody) => `/* Wrapped ${withName}*/\n${fromBody}`;

const toStringDescriptor = Object.getOwnPropertyDescriptor(Function.prototype, 'toString');
const toStringName = Object.getOwnPropertyDescriptor(Function.prototype.toString, 'name');

// We call `from.toString()` early (not lazily) to ensure `from` can be garbage collected.
// We use `bind()` instead of a closure for the same reason.
// Calling `from.toString()` early also allows caching it in case `to.toString()` is called several times.
const changeToString = (to, from, name) => {
	const withName = name === '' ? '' : `with ${name.trim()}() `;
	const newToString = wrappedToString.bind(null, withName, from.toString());
	// Ensure `to.toString.toString` is non-enumerable and has the same `same`
	Object.defineProperty(newToString, 'name', toStringName);
	const {writable, enumerable, configurable} = toStringDescriptor; // We destructue to avoid a potential `get` descriptor.
	Object.defineProperty(to, 'toString', {value: newToString, writable, enumerable, configurable});
};

function mimicFunction(to, from, {ignoreNonConfigurable = false} = {}) {
	const {name} = to;

	for (const property of Reflect.ownKeys(from)) {
		copyProperty(to, from, property, ignoreNonConfigurable);
	}

	changePrototype(to, from);
	changeToString(to, from, name);

	return to;
}

;// CONCATENATED MODULE: ./node_modules/restore-cursor/node_modules/onetime/index.js


const calledFunctions = new WeakMap();

const onetime = (function_, options = {}) => {
	if (typeof function_ !== 'function') {
		throw new TypeError('Expected a function');
	}

	let returnValue;
	let callCount = 0;
	const functionName = function_.displayName || function_.name || '<anonymous>';

	const onetime = function (...arguments_) {
		calledFunctions.set(onetime, ++callCount);

		if (callCount === 1) {
			returnValue = function_.apply(this, arguments_);
			function_ = undefined;
		} else if (options.throw === true) {
			throw new Error(`Function \`${functionName}\` can only be called once`);
		}

		return returnValue;
	};

	mimicFunction(onetime, function_);
	calledFunctions.set(onetime, callCount);

	return onetime;
};

onetime.callCount = function_ => {
	if (!calledFunctions.has(function_)) {
		throw new Error(`The given function \`${function_.name}\` is not wrapped by the \`onetime\` package`);
	}

	return calledFunctions.get(function_);
};

/* harmony default export */ const node_modules_onetime = (onetime);

;// CONCATENATED MODULE: ./node_modules/restore-cursor/node_modules/signal-exit/dist/mjs/signals.js
/**
 * This is not the set of all possible signals.
 *
 * It IS, however, the set of all signals that trigger
 * an exit on either Linux or BSD systems.  Linux is a
 * superset of the signal names supported on BSD, and
 * the unknown signals just fail to register, so we can
 * catch that easily enough.
 *
 * Windows signals are a different set, since there are
 * signals that terminate Windows processes, but don't
 * terminate (or don't even exist) on Posix systems.
 *
 * Don't bother with SIGKILL.  It's uncatchable, which
 * means that we can't fire any callbacks anyway.
 *
 * If a user does happen to register a handler on a non-
 * fatal signal like SIGWINCH or something, and then
 * exit, it'll end up firing `process.emit('exit')`, so
 * the handler will be fired anyway.
 *
 * SIGBUS, SIGFPE, SIGSEGV and SIGILL, when not raised
 * artificially, inherently leave the process in a
 * state from which it is not safe to try and enter JS
 * listeners.
 */
const signals = [];
signals.push('SIGHUP', 'SIGINT', 'SIGTERM');
if (process.platform !== 'win32') {
    signals.push('SIGALRM', 'SIGABRT', 'SIGVTALRM', 'SIGXCPU', 'SIGXFSZ', 'SIGUSR2', 'SIGTRAP', 'SIGSYS', 'SIGQUIT', 'SIGIOT'
    // should detect profiler and enable/disable accordingly.
    // see #21
    // 'SIGPROF'
    );
}
if (process.platform === 'linux') {
    signals.push('SIGIO', 'SIGPOLL', 'SIGPWR', 'SIGSTKFLT');
}
//# sourceMappingURL=signals.js.map
;// CONCATENATED MODULE: ./node_modules/restore-cursor/node_modules/signal-exit/dist/mjs/index.js
// Note: since nyc uses this module to output coverage, any lines
// that are in the direct sync flow of nyc's outputCoverage are
// ignored, since we can never get coverage for them.
// grab a reference to node's real process object right away


const processOk = (process) => !!process &&
    typeof process === 'object' &&
    typeof process.removeListener === 'function' &&
    typeof process.emit === 'function' &&
    typeof process.reallyExit === 'function' &&
    typeof process.listeners === 'function' &&
    typeof process.kill === 'function' &&
    typeof process.pid === 'number' &&
    typeof process.on === 'function';
const kExitEmitter = Symbol.for('signal-exit emitter');
const global = globalThis;
const ObjectDefineProperty = Object.defineProperty.bind(Object);
// teeny special purpose ee
class Emitter {
    emitted = {
        afterExit: false,
        exit: false,
    };
    listeners = {
        afterExit: [],
        exit: [],
    };
    count = 0;
    id = Math.random();
    constructor() {
        if (global[kExitEmitter]) {
            return global[kExitEmitter];
        }
        ObjectDefineProperty(global, kExitEmitter, {
            value: this,
            writable: false,
            enumerable: false,
            configurable: false,
        });
    }
    on(ev, fn) {
        this.listeners[ev].push(fn);
    }
    removeListener(ev, fn) {
        const list = this.listeners[ev];
        const i = list.indexOf(fn);
        /* c8 ignore start */
        if (i === -1) {
            return;
        }
        /* c8 ignore stop */
        if (i === 0 && list.length === 1) {
            list.length = 0;
        }
        else {
            list.splice(i, 1);
        }
    }
    emit(ev, code, signal) {
        if (this.emitted[ev]) {
            return false;
        }
        this.emitted[ev] = true;
        let ret = false;
        for (const fn of this.listeners[ev]) {
            ret = fn(code, signal) === true || ret;
        }
        if (ev === 'exit') {
            ret = this.emit('afterExit', code, signal) || ret;
        }
        return ret;
    }
}
class SignalExitBase {
}
const signalExitWrap = (handler) => {
    return {
        onExit(cb, opts) {
            return handler.onExit(cb, opts);
        },
        load() {
            return handler.load();
        },
        unload() {
            return handler.unload();
        },
    };
};
class SignalExitFallback extends SignalExitBase {
    onExit() {
        return () => { };
    }
    load() { }
    unload() { }
}
class SignalExit extends SignalExitBase {
    // "SIGHUP" throws an `ENOSYS` error on Windows,
    // so use a supported signal instead
    /* c8 ignore start */
    #hupSig = mjs_process.platform === 'win32' ? 'SIGINT' : 'SIGHUP';
    /* c8 ignore stop */
    #emitter = new Emitter();
    #process;
    #originalProcessEmit;
    #originalProcessReallyExit;
    #sigListeners = {};
    #loaded = false;
    constructor(process) {
        super();
        this.#process = process;
        // { <signal>: <listener fn>, ... }
        this.#sigListeners = {};
        for (const sig of signals) {
            this.#sigListeners[sig] = () => {
                // If there are no other listeners, an exit is coming!
                // Simplest way: remove us and then re-send the signal.
                // We know that this will kill the process, so we can
                // safely emit now.
                const listeners = this.#process.listeners(sig);
                let { count } = this.#emitter;
                // This is a workaround for the fact that signal-exit v3 and signal
                // exit v4 are not aware of each other, and each will attempt to let
                // the other handle it, so neither of them do. To correct this, we
                // detect if we're the only handler *except* for previous versions
                // of signal-exit, and increment by the count of listeners it has
                // created.
                /* c8 ignore start */
                const p = process;
                if (typeof p.__signal_exit_emitter__ === 'object' &&
                    typeof p.__signal_exit_emitter__.count === 'number') {
                    count += p.__signal_exit_emitter__.count;
                }
                /* c8 ignore stop */
                if (listeners.length === count) {
                    this.unload();
                    const ret = this.#emitter.emit('exit', null, sig);
                    /* c8 ignore start */
                    const s = sig === 'SIGHUP' ? this.#hupSig : sig;
                    if (!ret)
                        process.kill(process.pid, s);
                    /* c8 ignore stop */
                }
            };
        }
        this.#originalProcessReallyExit = process.reallyExit;
        this.#originalProcessEmit = process.emit;
    }
    onExit(cb, opts) {
        /* c8 ignore start */
        if (!processOk(this.#process)) {
            return () => { };
        }
        /* c8 ignore stop */
        if (this.#loaded === false) {
            this.load();
        }
        const ev = opts?.alwaysLast ? 'afterExit' : 'exit';
        this.#emitter.on(ev, cb);
        return () => {
            this.#emitter.removeListener(ev, cb);
            if (this.#emitter.listeners['exit'].length === 0 &&
                this.#emitter.listeners['afterExit'].length === 0) {
                this.unload();
            }
        };
    }
    load() {
        if (this.#loaded) {
            return;
        }
        this.#loaded = true;
        // This is the number of onSignalExit's that are in play.
        // It's important so that we can count the correct number of
        // listeners on signals, and don't wait for the other one to
        // handle it instead of us.
        this.#emitter.count += 1;
        for (const sig of signals) {
            try {
                const fn = this.#sigListeners[sig];
                if (fn)
                    this.#process.on(sig, fn);
            }
            catch (_) { }
        }
        this.#process.emit = (ev, ...a) => {
            return this.#processEmit(ev, ...a);
        };
        this.#process.reallyExit = (code) => {
            return this.#processReallyExit(code);
        };
    }
    unload() {
        if (!this.#loaded) {
            return;
        }
        this.#loaded = false;
        signals.forEach(sig => {
            const listener = this.#sigListeners[sig];
            /* c8 ignore start */
            if (!listener) {
                throw new Error('Listener not defined for signal: ' + sig);
            }
            /* c8 ignore stop */
            try {
                this.#process.removeListener(sig, listener);
                /* c8 ignore start */
            }
            catch (_) { }
            /* c8 ignore stop */
        });
        this.#process.emit = this.#originalProcessEmit;
        this.#process.reallyExit = this.#originalProcessReallyExit;
        this.#emitter.count -= 1;
    }
    #processReallyExit(code) {
        /* c8 ignore start */
        if (!processOk(this.#process)) {
            return 0;
        }
        this.#process.exitCode = code || 0;
        /* c8 ignore stop */
        this.#emitter.emit('exit', this.#process.exitCode, null);
        return this.#originalProcessReallyExit.call(this.#process, this.#process.exitCode);
    }
    #processEmit(ev, ...args) {
        const og = this.#originalProcessEmit;
        if (ev === 'exit' && processOk(this.#process)) {
            if (typeof args[0] === 'number') {
                this.#process.exitCode = args[0];
                /* c8 ignore start */
            }
            /* c8 ignore start */
            const ret = og.call(this.#process, ev, ...args);
            /* c8 ignore start */
            this.#emitter.emit('exit', this.#process.exitCode, null);
            /* c8 ignore stop */
            return ret;
        }
        else {
            return og.call(this.#process, ev, ...args);
        }
    }
}
const mjs_process = globalThis.process;
// wrap so that we call the method on the actual handler, without
// exporting it directly.
const { 
/**
 * Called when the process is exiting, whether via signal, explicit
 * exit, or running out of stuff to do.
 *
 * If the global process object is not suitable for instrumentation,
 * then this will be a no-op.
 *
 * Returns a function that may be used to unload signal-exit.
 */
onExit, 
/**
 * Load the listeners.  Likely you never need to call this, unless
 * doing a rather deep integration with signal-exit functionality.
 * Mostly exposed for the benefit of testing.
 *
 * @internal
 */
load, 
/**
 * Unload the listeners.  Likely you never need to call this, unless
 * doing a rather deep integration with signal-exit functionality.
 * Mostly exposed for the benefit of testing.
 *
 * @internal
 */
unload, } = signalExitWrap(processOk(mjs_process) ? new SignalExit(mjs_process) : new SignalExitFallback());
//# sourceMappingURL=index.js.map
;// CONCATENATED MODULE: ./node_modules/restore-cursor/index.js




const terminal = external_node_process_.stderr.isTTY
	? external_node_process_.stderr
	: (external_node_process_.stdout.isTTY ? external_node_process_.stdout : undefined);

const restoreCursor = terminal ? node_modules_onetime(() => {
	onExit(() => {
		terminal.write('\u001B[?25h');
	}, {alwaysLast: true});
}) : () => {};

/* harmony default export */ const restore_cursor = (restoreCursor);

;// CONCATENATED MODULE: ./node_modules/cli-cursor/index.js



let isHidden = false;

const cliCursor = {};

cliCursor.show = (writableStream = external_node_process_.stderr) => {
	if (!writableStream.isTTY) {
		return;
	}

	isHidden = false;
	writableStream.write('\u001B[?25h');
};

cliCursor.hide = (writableStream = external_node_process_.stderr) => {
	if (!writableStream.isTTY) {
		return;
	}

	restore_cursor();
	isHidden = true;
	writableStream.write('\u001B[?25l');
};

cliCursor.toggle = (force, writableStream) => {
	if (force !== undefined) {
		isHidden = force;
	}

	if (isHidden) {
		cliCursor.show(writableStream);
	} else {
		cliCursor.hide(writableStream);
	}
};

/* harmony default export */ const cli_cursor = (cliCursor);

;// CONCATENATED MODULE: ./node_modules/cli-spinners/spinners.json
const spinners_namespaceObject = /*#__PURE__*/JSON.parse('{"dots":{"interval":80,"frames":["⠋","⠙","⠹","⠸","⠼","⠴","⠦","⠧","⠇","⠏"]},"dots2":{"interval":80,"frames":["⣾","⣽","⣻","⢿","⡿","⣟","⣯","⣷"]},"dots3":{"interval":80,"frames":["⠋","⠙","⠚","⠞","⠖","⠦","⠴","⠲","⠳","⠓"]},"dots4":{"interval":80,"frames":["⠄","⠆","⠇","⠋","⠙","⠸","⠰","⠠","⠰","⠸","⠙","⠋","⠇","⠆"]},"dots5":{"interval":80,"frames":["⠋","⠙","⠚","⠒","⠂","⠂","⠒","⠲","⠴","⠦","⠖","⠒","⠐","⠐","⠒","⠓","⠋"]},"dots6":{"interval":80,"frames":["⠁","⠉","⠙","⠚","⠒","⠂","⠂","⠒","⠲","⠴","⠤","⠄","⠄","⠤","⠴","⠲","⠒","⠂","⠂","⠒","⠚","⠙","⠉","⠁"]},"dots7":{"interval":80,"frames":["⠈","⠉","⠋","⠓","⠒","⠐","⠐","⠒","⠖","⠦","⠤","⠠","⠠","⠤","⠦","⠖","⠒","⠐","⠐","⠒","⠓","⠋","⠉","⠈"]},"dots8":{"interval":80,"frames":["⠁","⠁","⠉","⠙","⠚","⠒","⠂","⠂","⠒","⠲","⠴","⠤","⠄","⠄","⠤","⠠","⠠","⠤","⠦","⠖","⠒","⠐","⠐","⠒","⠓","⠋","⠉","⠈","⠈"]},"dots9":{"interval":80,"frames":["⢹","⢺","⢼","⣸","⣇","⡧","⡗","⡏"]},"dots10":{"interval":80,"frames":["⢄","⢂","⢁","⡁","⡈","⡐","⡠"]},"dots11":{"interval":100,"frames":["⠁","⠂","⠄","⡀","⢀","⠠","⠐","⠈"]},"dots12":{"interval":80,"frames":["⢀⠀","⡀⠀","⠄⠀","⢂⠀","⡂⠀","⠅⠀","⢃⠀","⡃⠀","⠍⠀","⢋⠀","⡋⠀","⠍⠁","⢋⠁","⡋⠁","⠍⠉","⠋⠉","⠋⠉","⠉⠙","⠉⠙","⠉⠩","⠈⢙","⠈⡙","⢈⠩","⡀⢙","⠄⡙","⢂⠩","⡂⢘","⠅⡘","⢃⠨","⡃⢐","⠍⡐","⢋⠠","⡋⢀","⠍⡁","⢋⠁","⡋⠁","⠍⠉","⠋⠉","⠋⠉","⠉⠙","⠉⠙","⠉⠩","⠈⢙","⠈⡙","⠈⠩","⠀⢙","⠀⡙","⠀⠩","⠀⢘","⠀⡘","⠀⠨","⠀⢐","⠀⡐","⠀⠠","⠀⢀","⠀⡀"]},"dots13":{"interval":80,"frames":["⣼","⣹","⢻","⠿","⡟","⣏","⣧","⣶"]},"dots14":{"interval":80,"frames":["⠉⠉","⠈⠙","⠀⠹","⠀⢸","⠀⣰","⢀⣠","⣀⣀","⣄⡀","⣆⠀","⡇⠀","⠏⠀","⠋⠁"]},"dots8Bit":{"interval":80,"frames":["⠀","⠁","⠂","⠃","⠄","⠅","⠆","⠇","⡀","⡁","⡂","⡃","⡄","⡅","⡆","⡇","⠈","⠉","⠊","⠋","⠌","⠍","⠎","⠏","⡈","⡉","⡊","⡋","⡌","⡍","⡎","⡏","⠐","⠑","⠒","⠓","⠔","⠕","⠖","⠗","⡐","⡑","⡒","⡓","⡔","⡕","⡖","⡗","⠘","⠙","⠚","⠛","⠜","⠝","⠞","⠟","⡘","⡙","⡚","⡛","⡜","⡝","⡞","⡟","⠠","⠡","⠢","⠣","⠤","⠥","⠦","⠧","⡠","⡡","⡢","⡣","⡤","⡥","⡦","⡧","⠨","⠩","⠪","⠫","⠬","⠭","⠮","⠯","⡨","⡩","⡪","⡫","⡬","⡭","⡮","⡯","⠰","⠱","⠲","⠳","⠴","⠵","⠶","⠷","⡰","⡱","⡲","⡳","⡴","⡵","⡶","⡷","⠸","⠹","⠺","⠻","⠼","⠽","⠾","⠿","⡸","⡹","⡺","⡻","⡼","⡽","⡾","⡿","⢀","⢁","⢂","⢃","⢄","⢅","⢆","⢇","⣀","⣁","⣂","⣃","⣄","⣅","⣆","⣇","⢈","⢉","⢊","⢋","⢌","⢍","⢎","⢏","⣈","⣉","⣊","⣋","⣌","⣍","⣎","⣏","⢐","⢑","⢒","⢓","⢔","⢕","⢖","⢗","⣐","⣑","⣒","⣓","⣔","⣕","⣖","⣗","⢘","⢙","⢚","⢛","⢜","⢝","⢞","⢟","⣘","⣙","⣚","⣛","⣜","⣝","⣞","⣟","⢠","⢡","⢢","⢣","⢤","⢥","⢦","⢧","⣠","⣡","⣢","⣣","⣤","⣥","⣦","⣧","⢨","⢩","⢪","⢫","⢬","⢭","⢮","⢯","⣨","⣩","⣪","⣫","⣬","⣭","⣮","⣯","⢰","⢱","⢲","⢳","⢴","⢵","⢶","⢷","⣰","⣱","⣲","⣳","⣴","⣵","⣶","⣷","⢸","⢹","⢺","⢻","⢼","⢽","⢾","⢿","⣸","⣹","⣺","⣻","⣼","⣽","⣾","⣿"]},"dotsCircle":{"interval":80,"frames":["⢎ ","⠎⠁","⠊⠑","⠈⠱"," ⡱","⢀⡰","⢄⡠","⢆⡀"]},"sand":{"interval":80,"frames":["⠁","⠂","⠄","⡀","⡈","⡐","⡠","⣀","⣁","⣂","⣄","⣌","⣔","⣤","⣥","⣦","⣮","⣶","⣷","⣿","⡿","⠿","⢟","⠟","⡛","⠛","⠫","⢋","⠋","⠍","⡉","⠉","⠑","⠡","⢁"]},"line":{"interval":130,"frames":["-","\\\\","|","/"]},"line2":{"interval":100,"frames":["⠂","-","–","—","–","-"]},"rollingLine":{"interval":80,"frames":["/  "," - "," \\\\ ","  |","  |"," \\\\ "," - ","/  "]},"pipe":{"interval":100,"frames":["┤","┘","┴","└","├","┌","┬","┐"]},"simpleDots":{"interval":400,"frames":[".  ",".. ","...","   "]},"simpleDotsScrolling":{"interval":200,"frames":[".  ",".. ","..."," ..","  .","   "]},"star":{"interval":70,"frames":["✶","✸","✹","✺","✹","✷"]},"star2":{"interval":80,"frames":["+","x","*"]},"flip":{"interval":70,"frames":["_","_","_","-","`","`","\'","´","-","_","_","_"]},"hamburger":{"interval":100,"frames":["☱","☲","☴"]},"growVertical":{"interval":120,"frames":["▁","▃","▄","▅","▆","▇","▆","▅","▄","▃"]},"growHorizontal":{"interval":120,"frames":["▏","▎","▍","▌","▋","▊","▉","▊","▋","▌","▍","▎"]},"balloon":{"interval":140,"frames":[" ",".","o","O","@","*"," "]},"balloon2":{"interval":120,"frames":[".","o","O","°","O","o","."]},"noise":{"interval":100,"frames":["▓","▒","░"]},"bounce":{"interval":120,"frames":["⠁","⠂","⠄","⠂"]},"boxBounce":{"interval":120,"frames":["▖","▘","▝","▗"]},"boxBounce2":{"interval":100,"frames":["▌","▀","▐","▄"]},"triangle":{"interval":50,"frames":["◢","◣","◤","◥"]},"binary":{"interval":80,"frames":["010010","001100","100101","111010","111101","010111","101011","111000","110011","110101"]},"arc":{"interval":100,"frames":["◜","◠","◝","◞","◡","◟"]},"circle":{"interval":120,"frames":["◡","⊙","◠"]},"squareCorners":{"interval":180,"frames":["◰","◳","◲","◱"]},"circleQuarters":{"interval":120,"frames":["◴","◷","◶","◵"]},"circleHalves":{"interval":50,"frames":["◐","◓","◑","◒"]},"squish":{"interval":100,"frames":["╫","╪"]},"toggle":{"interval":250,"frames":["⊶","⊷"]},"toggle2":{"interval":80,"frames":["▫","▪"]},"toggle3":{"interval":120,"frames":["□","■"]},"toggle4":{"interval":100,"frames":["■","□","▪","▫"]},"toggle5":{"interval":100,"frames":["▮","▯"]},"toggle6":{"interval":300,"frames":["ဝ","၀"]},"toggle7":{"interval":80,"frames":["⦾","⦿"]},"toggle8":{"interval":100,"frames":["◍","◌"]},"toggle9":{"interval":100,"frames":["◉","◎"]},"toggle10":{"interval":100,"frames":["㊂","㊀","㊁"]},"toggle11":{"interval":50,"frames":["⧇","⧆"]},"toggle12":{"interval":120,"frames":["☗","☖"]},"toggle13":{"interval":80,"frames":["=","*","-"]},"arrow":{"interval":100,"frames":["←","↖","↑","↗","→","↘","↓","↙"]},"arrow2":{"interval":80,"frames":["⬆️ ","↗️ ","➡️ ","↘️ ","⬇️ ","↙️ ","⬅️ ","↖️ "]},"arrow3":{"interval":120,"frames":["▹▹▹▹▹","▸▹▹▹▹","▹▸▹▹▹","▹▹▸▹▹","▹▹▹▸▹","▹▹▹▹▸"]},"bouncingBar":{"interval":80,"frames":["[    ]","[=   ]","[==  ]","[=== ]","[====]","[ ===]","[  ==]","[   =]","[    ]","[   =]","[  ==]","[ ===]","[====]","[=== ]","[==  ]","[=   ]"]},"bouncingBall":{"interval":80,"frames":["( ●    )","(  ●   )","(   ●  )","(    ● )","(     ●)","(    ● )","(   ●  )","(  ●   )","( ●    )","(●     )"]},"smiley":{"interval":200,"frames":["😄 ","😝 "]},"monkey":{"interval":300,"frames":["🙈 ","🙈 ","🙉 ","🙊 "]},"hearts":{"interval":100,"frames":["💛 ","💙 ","💜 ","💚 ","💗 "]},"clock":{"interval":100,"frames":["🕛 ","🕐 ","🕑 ","🕒 ","🕓 ","🕔 ","🕕 ","🕖 ","🕗 ","🕘 ","🕙 ","🕚 "]},"earth":{"interval":180,"frames":["🌍 ","🌎 ","🌏 "]},"material":{"interval":17,"frames":["█▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁","██▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁","███▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁","████▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁","██████▁▁▁▁▁▁▁▁▁▁▁▁▁▁","██████▁▁▁▁▁▁▁▁▁▁▁▁▁▁","███████▁▁▁▁▁▁▁▁▁▁▁▁▁","████████▁▁▁▁▁▁▁▁▁▁▁▁","█████████▁▁▁▁▁▁▁▁▁▁▁","█████████▁▁▁▁▁▁▁▁▁▁▁","██████████▁▁▁▁▁▁▁▁▁▁","███████████▁▁▁▁▁▁▁▁▁","█████████████▁▁▁▁▁▁▁","██████████████▁▁▁▁▁▁","██████████████▁▁▁▁▁▁","▁██████████████▁▁▁▁▁","▁██████████████▁▁▁▁▁","▁██████████████▁▁▁▁▁","▁▁██████████████▁▁▁▁","▁▁▁██████████████▁▁▁","▁▁▁▁█████████████▁▁▁","▁▁▁▁██████████████▁▁","▁▁▁▁██████████████▁▁","▁▁▁▁▁██████████████▁","▁▁▁▁▁██████████████▁","▁▁▁▁▁██████████████▁","▁▁▁▁▁▁██████████████","▁▁▁▁▁▁██████████████","▁▁▁▁▁▁▁█████████████","▁▁▁▁▁▁▁█████████████","▁▁▁▁▁▁▁▁████████████","▁▁▁▁▁▁▁▁████████████","▁▁▁▁▁▁▁▁▁███████████","▁▁▁▁▁▁▁▁▁███████████","▁▁▁▁▁▁▁▁▁▁██████████","▁▁▁▁▁▁▁▁▁▁██████████","▁▁▁▁▁▁▁▁▁▁▁▁████████","▁▁▁▁▁▁▁▁▁▁▁▁▁███████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁██████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█████","█▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁████","██▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁███","██▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁███","███▁▁▁▁▁▁▁▁▁▁▁▁▁▁███","████▁▁▁▁▁▁▁▁▁▁▁▁▁▁██","█████▁▁▁▁▁▁▁▁▁▁▁▁▁▁█","█████▁▁▁▁▁▁▁▁▁▁▁▁▁▁█","██████▁▁▁▁▁▁▁▁▁▁▁▁▁█","████████▁▁▁▁▁▁▁▁▁▁▁▁","█████████▁▁▁▁▁▁▁▁▁▁▁","█████████▁▁▁▁▁▁▁▁▁▁▁","█████████▁▁▁▁▁▁▁▁▁▁▁","█████████▁▁▁▁▁▁▁▁▁▁▁","███████████▁▁▁▁▁▁▁▁▁","████████████▁▁▁▁▁▁▁▁","████████████▁▁▁▁▁▁▁▁","██████████████▁▁▁▁▁▁","██████████████▁▁▁▁▁▁","▁██████████████▁▁▁▁▁","▁██████████████▁▁▁▁▁","▁▁▁█████████████▁▁▁▁","▁▁▁▁▁████████████▁▁▁","▁▁▁▁▁████████████▁▁▁","▁▁▁▁▁▁███████████▁▁▁","▁▁▁▁▁▁▁▁█████████▁▁▁","▁▁▁▁▁▁▁▁█████████▁▁▁","▁▁▁▁▁▁▁▁▁█████████▁▁","▁▁▁▁▁▁▁▁▁█████████▁▁","▁▁▁▁▁▁▁▁▁▁█████████▁","▁▁▁▁▁▁▁▁▁▁▁████████▁","▁▁▁▁▁▁▁▁▁▁▁████████▁","▁▁▁▁▁▁▁▁▁▁▁▁███████▁","▁▁▁▁▁▁▁▁▁▁▁▁███████▁","▁▁▁▁▁▁▁▁▁▁▁▁▁███████","▁▁▁▁▁▁▁▁▁▁▁▁▁███████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁████","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁███","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁███","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁██","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁██","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁██","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁█","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁","▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁"]},"moon":{"interval":80,"frames":["🌑 ","🌒 ","🌓 ","🌔 ","🌕 ","🌖 ","🌗 ","🌘 "]},"runner":{"interval":140,"frames":["🚶 ","🏃 "]},"pong":{"interval":80,"frames":["▐⠂       ▌","▐⠈       ▌","▐ ⠂      ▌","▐ ⠠      ▌","▐  ⡀     ▌","▐  ⠠     ▌","▐   ⠂    ▌","▐   ⠈    ▌","▐    ⠂   ▌","▐    ⠠   ▌","▐     ⡀  ▌","▐     ⠠  ▌","▐      ⠂ ▌","▐      ⠈ ▌","▐       ⠂▌","▐       ⠠▌","▐       ⡀▌","▐      ⠠ ▌","▐      ⠂ ▌","▐     ⠈  ▌","▐     ⠂  ▌","▐    ⠠   ▌","▐    ⡀   ▌","▐   ⠠    ▌","▐   ⠂    ▌","▐  ⠈     ▌","▐  ⠂     ▌","▐ ⠠      ▌","▐ ⡀      ▌","▐⠠       ▌"]},"shark":{"interval":120,"frames":["▐|\\\\____________▌","▐_|\\\\___________▌","▐__|\\\\__________▌","▐___|\\\\_________▌","▐____|\\\\________▌","▐_____|\\\\_______▌","▐______|\\\\______▌","▐_______|\\\\_____▌","▐________|\\\\____▌","▐_________|\\\\___▌","▐__________|\\\\__▌","▐___________|\\\\_▌","▐____________|\\\\▌","▐____________/|▌","▐___________/|_▌","▐__________/|__▌","▐_________/|___▌","▐________/|____▌","▐_______/|_____▌","▐______/|______▌","▐_____/|_______▌","▐____/|________▌","▐___/|_________▌","▐__/|__________▌","▐_/|___________▌","▐/|____________▌"]},"dqpb":{"interval":100,"frames":["d","q","p","b"]},"weather":{"interval":100,"frames":["☀️ ","☀️ ","☀️ ","🌤 ","⛅️ ","🌥 ","☁️ ","🌧 ","🌨 ","🌧 ","🌨 ","🌧 ","🌨 ","⛈ ","🌨 ","🌧 ","🌨 ","☁️ ","🌥 ","⛅️ ","🌤 ","☀️ ","☀️ "]},"christmas":{"interval":400,"frames":["🌲","🎄"]},"grenade":{"interval":80,"frames":["،  ","′  "," ´ "," ‾ ","  ⸌","  ⸊","  |","  ⁎","  ⁕"," ෴ ","  ⁓","   ","   ","   "]},"point":{"interval":125,"frames":["∙∙∙","●∙∙","∙●∙","∙∙●","∙∙∙"]},"layer":{"interval":150,"frames":["-","=","≡"]},"betaWave":{"interval":80,"frames":["ρββββββ","βρβββββ","ββρββββ","βββρβββ","ββββρββ","βββββρβ","ββββββρ"]},"fingerDance":{"interval":160,"frames":["🤘 ","🤟 ","🖖 ","✋ ","🤚 ","👆 "]},"fistBump":{"interval":80,"frames":["🤜　　　　🤛 ","🤜　　　　🤛 ","🤜　　　　🤛 ","　🤜　　🤛　 ","　　🤜🤛　　 ","　🤜✨🤛　　 ","🤜　✨　🤛　 "]},"soccerHeader":{"interval":80,"frames":[" 🧑⚽️       🧑 ","🧑  ⚽️      🧑 ","🧑   ⚽️     🧑 ","🧑    ⚽️    🧑 ","🧑     ⚽️   🧑 ","🧑      ⚽️  🧑 ","🧑       ⚽️🧑  ","🧑      ⚽️  🧑 ","🧑     ⚽️   🧑 ","🧑    ⚽️    🧑 ","🧑   ⚽️     🧑 ","🧑  ⚽️      🧑 "]},"mindblown":{"interval":160,"frames":["😐 ","😐 ","😮 ","😮 ","😦 ","😦 ","😧 ","😧 ","🤯 ","💥 ","✨ ","　 ","　 ","　 "]},"speaker":{"interval":160,"frames":["🔈 ","🔉 ","🔊 ","🔉 "]},"orangePulse":{"interval":100,"frames":["🔸 ","🔶 ","🟠 ","🟠 ","🔶 "]},"bluePulse":{"interval":100,"frames":["🔹 ","🔷 ","🔵 ","🔵 ","🔷 "]},"orangeBluePulse":{"interval":100,"frames":["🔸 ","🔶 ","🟠 ","🟠 ","🔶 ","🔹 ","🔷 ","🔵 ","🔵 ","🔷 "]},"timeTravel":{"interval":100,"frames":["🕛 ","🕚 ","🕙 ","🕘 ","🕗 ","🕖 ","🕕 ","🕔 ","🕓 ","🕒 ","🕑 ","🕐 "]},"aesthetic":{"interval":80,"frames":["▰▱▱▱▱▱▱","▰▰▱▱▱▱▱","▰▰▰▱▱▱▱","▰▰▰▰▱▱▱","▰▰▰▰▰▱▱","▰▰▰▰▰▰▱","▰▰▰▰▰▰▰","▰▱▱▱▱▱▱"]},"dwarfFortress":{"interval":80,"frames":[" ██████£££  ","☺██████£££  ","☺██████£££  ","☺▓█████£££  ","☺▓█████£££  ","☺▒█████£££  ","☺▒█████£££  ","☺░█████£££  ","☺░█████£££  ","☺ █████£££  "," ☺█████£££  "," ☺█████£££  "," ☺▓████£££  "," ☺▓████£££  "," ☺▒████£££  "," ☺▒████£££  "," ☺░████£££  "," ☺░████£££  "," ☺ ████£££  ","  ☺████£££  ","  ☺████£££  ","  ☺▓███£££  ","  ☺▓███£££  ","  ☺▒███£££  ","  ☺▒███£££  ","  ☺░███£££  ","  ☺░███£££  ","  ☺ ███£££  ","   ☺███£££  ","   ☺███£££  ","   ☺▓██£££  ","   ☺▓██£££  ","   ☺▒██£££  ","   ☺▒██£££  ","   ☺░██£££  ","   ☺░██£££  ","   ☺ ██£££  ","    ☺██£££  ","    ☺██£££  ","    ☺▓█£££  ","    ☺▓█£££  ","    ☺▒█£££  ","    ☺▒█£££  ","    ☺░█£££  ","    ☺░█£££  ","    ☺ █£££  ","     ☺█£££  ","     ☺█£££  ","     ☺▓£££  ","     ☺▓£££  ","     ☺▒£££  ","     ☺▒£££  ","     ☺░£££  ","     ☺░£££  ","     ☺ £££  ","      ☺£££  ","      ☺£££  ","      ☺▓££  ","      ☺▓££  ","      ☺▒££  ","      ☺▒££  ","      ☺░££  ","      ☺░££  ","      ☺ ££  ","       ☺££  ","       ☺££  ","       ☺▓£  ","       ☺▓£  ","       ☺▒£  ","       ☺▒£  ","       ☺░£  ","       ☺░£  ","       ☺ £  ","        ☺£  ","        ☺£  ","        ☺▓  ","        ☺▓  ","        ☺▒  ","        ☺▒  ","        ☺░  ","        ☺░  ","        ☺   ","        ☺  &","        ☺ ☼&","       ☺ ☼ &","       ☺☼  &","      ☺☼  & ","      ‼   & ","     ☺   &  ","    ‼    &  ","   ☺    &   ","  ‼     &   "," ☺     &    ","‼      &    ","      &     ","      &     ","     &   ░  ","     &   ▒  ","    &    ▓  ","    &    £  ","   &    ░£  ","   &    ▒£  ","  &     ▓£  ","  &     ££  "," &     ░££  "," &     ▒££  ","&      ▓££  ","&      £££  ","      ░£££  ","      ▒£££  ","      ▓£££  ","      █£££  ","     ░█£££  ","     ▒█£££  ","     ▓█£££  ","     ██£££  ","    ░██£££  ","    ▒██£££  ","    ▓██£££  ","    ███£££  ","   ░███£££  ","   ▒███£££  ","   ▓███£££  ","   ████£££  ","  ░████£££  ","  ▒████£££  ","  ▓████£££  ","  █████£££  "," ░█████£££  "," ▒█████£££  "," ▓█████£££  "," ██████£££  "," ██████£££  "]},"fish":{"interval":80,"frames":["~~~~~~~~~~~~~~~~~~~~","> ~~~~~~~~~~~~~~~~~~","º> ~~~~~~~~~~~~~~~~~","(º> ~~~~~~~~~~~~~~~~","((º> ~~~~~~~~~~~~~~~","<((º> ~~~~~~~~~~~~~~","><((º> ~~~~~~~~~~~~~"," ><((º> ~~~~~~~~~~~~","~ ><((º> ~~~~~~~~~~~","~~ <>((º> ~~~~~~~~~~","~~~ ><((º> ~~~~~~~~~","~~~~ <>((º> ~~~~~~~~","~~~~~ ><((º> ~~~~~~~","~~~~~~ <>((º> ~~~~~~","~~~~~~~ ><((º> ~~~~~","~~~~~~~~ <>((º> ~~~~","~~~~~~~~~ ><((º> ~~~","~~~~~~~~~~ <>((º> ~~","~~~~~~~~~~~ ><((º> ~","~~~~~~~~~~~~ <>((º> ","~~~~~~~~~~~~~ ><((º>","~~~~~~~~~~~~~~ <>((º","~~~~~~~~~~~~~~~ ><((","~~~~~~~~~~~~~~~~ <>(","~~~~~~~~~~~~~~~~~ ><","~~~~~~~~~~~~~~~~~~ <","~~~~~~~~~~~~~~~~~~~~"]}}');
;// CONCATENATED MODULE: ./node_modules/cli-spinners/index.js


/* harmony default export */ const cli_spinners = (spinners_namespaceObject);

const spinnersList = Object.keys(spinners_namespaceObject);

function randomSpinner() {
	const randomIndex = Math.floor(Math.random() * spinnersList.length);
	const spinnerName = spinnersList[randomIndex];
	return spinners[spinnerName];
}

;// CONCATENATED MODULE: ./node_modules/yoctocolors/base.js


// eslint-disable-next-line no-warning-comments
// TODO: Use a better method when it's added to Node.js (https://github.com/nodejs/node/pull/40240)
// Lots of optionals here to support Deno.
const hasColors = external_node_tty_namespaceObject?.WriteStream?.prototype?.hasColors?.() ?? false;

const format = (open, close) => {
	if (!hasColors) {
		return input => input;
	}

	const openCode = `\u001B[${open}m`;
	const closeCode = `\u001B[${close}m`;

	return input => {
		const string = input + ''; // eslint-disable-line no-implicit-coercion -- This is faster.
		let index = string.indexOf(closeCode);

		if (index === -1) {
			// Note: Intentionally not using string interpolation for performance reasons.
			return openCode + string + closeCode;
		}

		// Handle nested colors.

		// We could have done this, but it's too slow (as of Node.js 22).
		// return openCode + string.replaceAll(closeCode, (close === 22 ? closeCode : '') + openCode) + closeCode;

		let result = openCode;
		let lastIndex = 0;

		// SGR 22 resets both bold (1) and dim (2). When we encounter a nested
		// close for styles that use 22, we need to re-open the outer style.
		const reopenOnNestedClose = close === 22;
		const replaceCode = (reopenOnNestedClose ? closeCode : '') + openCode;

		while (index !== -1) {
			result += string.slice(lastIndex, index) + replaceCode;
			lastIndex = index + closeCode.length;
			index = string.indexOf(closeCode, lastIndex);
		}

		result += string.slice(lastIndex) + closeCode;

		return result;
	};
};

const base_reset = format(0, 0);
const bold = format(1, 22);
const dim = format(2, 22);
const italic = format(3, 23);
const underline = format(4, 24);
// Extended underline styles (`SGR 4:x` sub-parameters).
const underlineDouble = format('4:2', 24);
const underlineCurly = format('4:3', 24);
const underlineDotted = format('4:4', 24);
const underlineDashed = format('4:5', 24);
const overline = format(53, 55);
const inverse = format(7, 27);
const base_hidden = format(8, 28);
const strikethrough = format(9, 29);

const black = format(30, 39);
const red = format(31, 39);
const green = format(32, 39);
const yellow = format(33, 39);
const blue = format(34, 39);
const magenta = format(35, 39);
const cyan = format(36, 39);
const white = format(37, 39);
const gray = format(90, 39);

const bgBlack = format(40, 49);
const bgRed = format(41, 49);
const bgGreen = format(42, 49);
const bgYellow = format(43, 49);
const bgBlue = format(44, 49);
const bgMagenta = format(45, 49);
const bgCyan = format(46, 49);
const bgWhite = format(47, 49);
const bgGray = format(100, 49);

const redBright = format(91, 39);
const greenBright = format(92, 39);
const yellowBright = format(93, 39);
const blueBright = format(94, 39);
const magentaBright = format(95, 39);
const cyanBright = format(96, 39);
const whiteBright = format(97, 39);

const bgRedBright = format(101, 49);
const bgGreenBright = format(102, 49);
const bgYellowBright = format(103, 49);
const bgBlueBright = format(104, 49);
const bgMagentaBright = format(105, 49);
const bgCyanBright = format(106, 49);
const bgWhiteBright = format(107, 49);

// Underline color (`SGR 58`/`59`). It has no basic 16-color form, so the palette index is used.
const underlineBlack = format('58;5;0', 59);
const underlineRed = format('58;5;1', 59);
const underlineGreen = format('58;5;2', 59);
const underlineYellow = format('58;5;3', 59);
const underlineBlue = format('58;5;4', 59);
const underlineMagenta = format('58;5;5', 59);
const underlineCyan = format('58;5;6', 59);
const underlineWhite = format('58;5;7', 59);
const underlineGray = format('58;5;8', 59);

const underlineRedBright = format('58;5;9', 59);
const underlineGreenBright = format('58;5;10', 59);
const underlineYellowBright = format('58;5;11', 59);
const underlineBlueBright = format('58;5;12', 59);
const underlineMagentaBright = format('58;5;13', 59);
const underlineCyanBright = format('58;5;14', 59);
const underlineWhiteBright = format('58;5;15', 59);

;// CONCATENATED MODULE: ./node_modules/is-unicode-supported/index.js


function isUnicodeSupported() {
	const {env} = external_node_process_;
	const {TERM, TERM_PROGRAM} = env;

	if (external_node_process_.platform !== 'win32') {
		return TERM !== 'linux'; // Linux console (kernel)
	}

	return Boolean(env.WT_SESSION) // Windows Terminal
		|| Boolean(env.TERMINUS_SUBLIME) // Terminus (<0.2.27)
		|| env.ConEmuTask === '{cmd::Cmder}' // ConEmu and cmder
		|| TERM_PROGRAM === 'Terminus-Sublime'
		|| TERM_PROGRAM === 'vscode'
		|| TERM === 'xterm-256color'
		|| TERM === 'alacritty'
		|| TERM === 'rxvt-unicode'
		|| TERM === 'rxvt-unicode-256color'
		|| env.TERMINAL_EMULATOR === 'JetBrains-JediTerm';
}

;// CONCATENATED MODULE: ./node_modules/log-symbols/symbols.js



const _isUnicodeSupported = isUnicodeSupported();

const info = blue(_isUnicodeSupported ? 'ℹ' : 'i');
const success = green(_isUnicodeSupported ? '✔' : '√');
const warning = yellow(_isUnicodeSupported ? '⚠' : '‼');
const error = red(_isUnicodeSupported ? '✖' : '×');

;// CONCATENATED MODULE: ./node_modules/ora/node_modules/ansi-regex/index.js
// Valid string terminator sequences are ESC\ and 0x9c; OSC also accepts BEL.
const ST = String.raw`(?:\u001B\u005C|\u009C)`;

// OSC sequences only: ESC ] ... BEL/ST (or the C1 introducer 0x9d ... BEL/ST).
// Payloads stop at terminators, cancellations, and C1 controls. An unterminated string cannot swallow the next sequence or repeatedly scan its payload from later introducers. Terminals likewise abort a control string on an unexpected ESC.
const stringControls = String.raw`\u0018\u001A\u001B\u0080-\u009F`;
const osc = String.raw`(?:\u001B\]|\u009D)[^\u0007${stringControls}]*(?:\u0007|${ST})`;

// DCS, SOS, PM, APC, and screen window titles have opaque payloads terminated by ST. Nested ESC payloads, such as tmux passthrough, require a parser.
const controlString = String.raw`(?:\u001B[PX^_k]|[\u0090\u0098\u009E\u009F])[^${stringControls}]*${ST}`;

// Linux console palette controls have fixed lengths and no string terminator; iTerm2 terminates its palette assignments. Consume an immediately adjacent OSC terminator, but match these controls before OSC so a later BEL cannot consume visible text.
const linuxPalette = String.raw`\u001B\](?:P[\dA-Fa-f]{7}|R)(?:\u0007|${ST})?`;

// CSI: ESC [ or C1 CSI, parameter bytes (0x30–0x3f), intermediate bytes (0x20–0x2f), then a final byte (0x40–0x7e).
// `= < >` are final bytes in two-byte VT52 escapes (`ESC >`) but parameter bytes in a CSI (`ESC [ > 0 ; 276 ; 0 c`, the device attributes reply). Match CSI first to consume the whole sequence, where its introducer makes the two unambiguous.
const csi = String.raw`(?:\u001B\[|\u009B)[\u0030-\u003F]*[\u0020-\u002F]*[\u0040-\u007E]`;

// Related escapes: ESC, intermediate bytes (0x20–0x2f), then a final byte (0x30–0x7e), or a supported two-byte escape.
// The two-byte final class stays narrow so that ESC followed by an arbitrary character is not read as a sequence. CSI parameters belong only to the CSI form, preventing partial matches and avoiding a second scan with nested repetition.
// Escapes whose final byte is a digit include `ESC 7` and `ESC 8` (save and restore cursor), `ESC ( 0` (line drawing character set), and `ESC # 8` (screen alignment).
// A digit is never a CSI final byte. These escapes end immediately at their final byte, so `ESC 7 l` is read as the escape followed by text rather than a sequence with parameter 7 and final byte `l`.
const ansi_regex_escape = String.raw`\u001B(?:[\u0020-\u002F]+[\u0030-\u007E]|[\dA-PR-TZcf-oq-uy=><~|}])`;

const pattern = `${linuxPalette}|${osc}|${controlString}|${csi}|${ansi_regex_escape}`;

function ansiRegex({onlyFirst = false} = {}) {
	return new RegExp(pattern, onlyFirst ? undefined : 'g');
}

;// CONCATENATED MODULE: ./node_modules/ora/node_modules/strip-ansi/index.js


const regex = ansiRegex();

function stripAnsi(string) {
	if (typeof string !== 'string') {
		throw new TypeError(`Expected a \`string\`, got \`${typeof string}\``);
	}

	// Fast path: ANSI codes require ESC (7-bit) or CSI (8-bit) introducer
	if (!string.includes('\u001B') && !string.includes('\u009B')) {
		return string;
	}

	// Even though the regex is global, we don't need to reset the `.lastIndex`
	// because unlike `.exec()` and `.test()`, `.replace()` does it automatically
	// and doing it manually has a performance penalty.
	return string.replace(regex, '');
}

;// CONCATENATED MODULE: ./node_modules/get-east-asian-width/lookup-data.js
// Generated by scripts/build.js

const ambiguousMinimalCodePoint = 161;
const ambiguousMaximumCodePoint = 1114109;
const ambiguousRanges = [161, 161, 164, 164, 167, 168, 170, 170, 173, 174, 176, 180, 182, 186, 188, 191, 198, 198, 208, 208, 215, 216, 222, 225, 230, 230, 232, 234, 236, 237, 240, 240, 242, 243, 247, 250, 252, 252, 254, 254, 257, 257, 273, 273, 275, 275, 283, 283, 294, 295, 299, 299, 305, 307, 312, 312, 319, 322, 324, 324, 328, 331, 333, 333, 338, 339, 358, 359, 363, 363, 462, 462, 464, 464, 466, 466, 468, 468, 470, 470, 472, 472, 474, 474, 476, 476, 593, 593, 609, 609, 708, 708, 711, 711, 713, 715, 717, 717, 720, 720, 728, 731, 733, 733, 735, 735, 768, 879, 913, 929, 931, 937, 945, 961, 963, 969, 1025, 1025, 1040, 1103, 1105, 1105, 8208, 8208, 8211, 8214, 8216, 8217, 8220, 8221, 8224, 8226, 8228, 8231, 8240, 8240, 8242, 8243, 8245, 8245, 8251, 8251, 8254, 8254, 8308, 8308, 8319, 8319, 8321, 8324, 8364, 8364, 8451, 8451, 8453, 8453, 8457, 8457, 8467, 8467, 8470, 8470, 8481, 8482, 8486, 8486, 8491, 8491, 8531, 8532, 8539, 8542, 8544, 8555, 8560, 8569, 8585, 8585, 8592, 8601, 8632, 8633, 8658, 8658, 8660, 8660, 8679, 8679, 8704, 8704, 8706, 8707, 8711, 8712, 8715, 8715, 8719, 8719, 8721, 8721, 8725, 8725, 8730, 8730, 8733, 8736, 8739, 8739, 8741, 8741, 8743, 8748, 8750, 8750, 8756, 8759, 8764, 8765, 8776, 8776, 8780, 8780, 8786, 8786, 8800, 8801, 8804, 8807, 8810, 8811, 8814, 8815, 8834, 8835, 8838, 8839, 8853, 8853, 8857, 8857, 8869, 8869, 8895, 8895, 8978, 8978, 9312, 9449, 9451, 9547, 9552, 9587, 9600, 9615, 9618, 9621, 9632, 9633, 9635, 9641, 9650, 9651, 9654, 9655, 9660, 9661, 9664, 9665, 9670, 9672, 9675, 9675, 9678, 9681, 9698, 9701, 9711, 9711, 9733, 9734, 9737, 9737, 9742, 9743, 9756, 9756, 9758, 9758, 9792, 9792, 9794, 9794, 9824, 9825, 9827, 9829, 9831, 9834, 9836, 9837, 9839, 9839, 9886, 9887, 9919, 9919, 9926, 9933, 9935, 9939, 9941, 9953, 9955, 9955, 9960, 9961, 9963, 9969, 9972, 9972, 9974, 9977, 9979, 9980, 9982, 9983, 10045, 10045, 10102, 10111, 11094, 11097, 12872, 12879, 57344, 63743, 65024, 65039, 65533, 65533, 127232, 127242, 127248, 127277, 127280, 127337, 127344, 127373, 127375, 127376, 127387, 127404, 917760, 917999, 983040, 1048573, 1048576, 1114109];

const fullwidthMinimalCodePoint = 12288;
const fullwidthMaximumCodePoint = 65510;
const fullwidthRanges = [12288, 12288, 65281, 65376, 65504, 65510];

const lookup_data_halfwidthMinimalCodePoint = 8361;
const lookup_data_halfwidthMaximumCodePoint = 65518;
const lookup_data_halfwidthRanges = (/* unused pure expression or super */ null && ([8361, 8361, 65377, 65470, 65474, 65479, 65482, 65487, 65490, 65495, 65498, 65500, 65512, 65518]));

const lookup_data_narrowMinimalCodePoint = 32;
const lookup_data_narrowMaximumCodePoint = 10630;
const lookup_data_narrowRanges = (/* unused pure expression or super */ null && ([32, 126, 162, 163, 165, 166, 172, 172, 175, 175, 10214, 10221, 10629, 10630]));

const wideMinimalCodePoint = 4352;
const wideMaximumCodePoint = 262141;
const wideRanges = [4352, 4447, 8986, 8987, 9001, 9002, 9193, 9196, 9200, 9200, 9203, 9203, 9725, 9726, 9748, 9749, 9776, 9783, 9800, 9811, 9855, 9855, 9866, 9871, 9875, 9875, 9889, 9889, 9898, 9899, 9917, 9918, 9924, 9925, 9934, 9934, 9940, 9940, 9962, 9962, 9970, 9971, 9973, 9973, 9978, 9978, 9981, 9981, 9989, 9989, 9994, 9995, 10024, 10024, 10060, 10060, 10062, 10062, 10067, 10069, 10071, 10071, 10133, 10135, 10160, 10160, 10175, 10175, 11035, 11036, 11088, 11088, 11093, 11093, 11904, 11929, 11931, 12019, 12032, 12245, 12272, 12287, 12289, 12350, 12353, 12438, 12441, 12543, 12549, 12591, 12593, 12686, 12688, 12773, 12783, 12830, 12832, 12871, 12880, 42124, 42128, 42182, 43360, 43388, 44032, 55203, 63744, 64255, 65040, 65049, 65072, 65106, 65108, 65126, 65128, 65131, 94176, 94180, 94192, 94198, 94208, 101594, 101631, 101664, 101760, 101874, 101888, 102801, 102816, 102866, 110576, 110579, 110581, 110587, 110589, 110590, 110592, 110888, 110898, 110898, 110928, 110930, 110933, 110933, 110948, 110952, 110960, 111355, 119552, 119638, 119648, 119670, 126980, 126980, 127183, 127183, 127374, 127374, 127377, 127386, 127406, 127406, 127488, 127490, 127504, 127547, 127552, 127560, 127568, 127569, 127584, 127589, 127744, 127776, 127789, 127797, 127799, 127868, 127870, 127891, 127904, 127946, 127951, 127955, 127968, 127984, 127988, 127988, 127992, 128062, 128064, 128064, 128066, 128252, 128255, 128317, 128331, 128334, 128336, 128359, 128378, 128378, 128405, 128406, 128420, 128420, 128507, 128591, 128640, 128709, 128716, 128716, 128720, 128722, 128725, 128729, 128732, 128735, 128747, 128748, 128756, 128764, 128986, 128986, 128992, 129003, 129008, 129008, 129292, 129338, 129340, 129349, 129351, 129535, 129648, 129660, 129664, 129734, 129736, 129736, 129740, 129757, 129759, 129771, 129775, 129786, 131072, 196605, 196608, 262141];

;// CONCATENATED MODULE: ./node_modules/get-east-asian-width/utilities.js
/**
Binary search on a sorted flat array of [start, end] pairs.

@param {number[]} ranges - Flat array of inclusive [start, end] range pairs, e.g. [0, 5, 10, 20].
@param {number} codePoint - The value to search for.
@returns {boolean} Whether the value falls within any of the ranges.
*/
const utilities_isInRange = (ranges, codePoint) => {
	let low = 0;
	let high = Math.floor(ranges.length / 2) - 1;
	while (low <= high) {
		const mid = Math.floor((low + high) / 2);
		const i = mid * 2;
		if (codePoint < ranges[i]) {
			high = mid - 1;
		} else if (codePoint > ranges[i + 1]) {
			low = mid + 1;
		} else {
			return true;
		}
	}

	return false;
};

;// CONCATENATED MODULE: ./node_modules/get-east-asian-width/lookup.js



const commonCjkCodePoint = 0x4E_00;
const [wideFastPathStart, wideFastPathEnd] = /* #__PURE__ */ findWideFastPathRange(wideRanges);

// Use a hot-path range so common `isWide` calls can skip binary search.
// The range containing U+4E00 covers common CJK ideographs;
// fallback to the largest range for resilience to Unicode table changes.
function findWideFastPathRange(ranges) {
	let fastPathStart = ranges[0];
	let fastPathEnd = ranges[1];

	for (let index = 0; index < ranges.length; index += 2) {
		const start = ranges[index];
		const end = ranges[index + 1];

		if (
			commonCjkCodePoint >= start
			&& commonCjkCodePoint <= end
		) {
			return [start, end];
		}

		if ((end - start) > (fastPathEnd - fastPathStart)) {
			fastPathStart = start;
			fastPathEnd = end;
		}
	}

	return [fastPathStart, fastPathEnd];
}

const isAmbiguous = codePoint => {
	if (
		codePoint < ambiguousMinimalCodePoint
		|| codePoint > ambiguousMaximumCodePoint
	) {
		return false;
	}

	return utilities_isInRange(ambiguousRanges, codePoint);
};

const isFullwidth = codePoint => {
	if (
		codePoint < fullwidthMinimalCodePoint
		|| codePoint > fullwidthMaximumCodePoint
	) {
		return false;
	}

	return utilities_isInRange(fullwidthRanges, codePoint);
};

const isHalfwidth = codePoint => {
	if (
		codePoint < halfwidthMinimalCodePoint
		|| codePoint > halfwidthMaximumCodePoint
	) {
		return false;
	}

	return isInRange(halfwidthRanges, codePoint);
};

const isNarrow = codePoint => {
	if (
		codePoint < narrowMinimalCodePoint
		|| codePoint > narrowMaximumCodePoint
	) {
		return false;
	}

	return isInRange(narrowRanges, codePoint);
};

const isWide = codePoint => {
	if (
		codePoint >= wideFastPathStart
		&& codePoint <= wideFastPathEnd
	) {
		return true;
	}

	if (
		codePoint < wideMinimalCodePoint
		|| codePoint > wideMaximumCodePoint
	) {
		return false;
	}

	return utilities_isInRange(wideRanges, codePoint);
};

function lookup_getCategory(codePoint) {
	if (isAmbiguous(codePoint)) {
		return 'ambiguous';
	}

	if (isFullwidth(codePoint)) {
		return 'fullwidth';
	}

	if (isHalfwidth(codePoint)) {
		return 'halfwidth';
	}

	if (isNarrow(codePoint)) {
		return 'narrow';
	}

	if (isWide(codePoint)) {
		return 'wide';
	}

	return 'neutral';
}

;// CONCATENATED MODULE: ./node_modules/get-east-asian-width/index.js


function validate(codePoint) {
	if (!Number.isSafeInteger(codePoint)) {
		throw new TypeError(`Expected a code point, got \`${typeof codePoint}\`.`);
	}
}

function eastAsianWidthType(codePoint) {
	validate(codePoint);

	return getCategory(codePoint);
}

function eastAsianWidth(codePoint, {ambiguousAsWide = false} = {}) {
	validate(codePoint);

	if (
		isFullwidth(codePoint)
		|| isWide(codePoint)
		|| (ambiguousAsWide && isAmbiguous(codePoint))
	) {
		return 2;
	}

	return 1;
}

// Private exports for https://github.com/sindresorhus/is-fullwidth-code-point


;// CONCATENATED MODULE: ./node_modules/ora/node_modules/string-width/index.js



/**
Logic:
- Segment graphemes to match how terminals render clusters.
- Width rules:
	1. Skip non-printing clusters (Default_Ignorable, Control, pure nonspacing/enclosing Mark, lone Surrogates). Tabs are ignored by design.
	2. RGI emoji clusters (\p{RGI_Emoji}) are double-width.
	3. Minimally-qualified/unqualified emoji clusters (ZWJ sequences with 2+ Extended_Pictographic, or keycap sequences) are double-width.
	4. Hangul jamo collapse each standard modern Hangul L+V or L+V+T syllable piece to width 2.
	   Unmatched repeated leading/vowel/trailing jamo stay additive because that matches how the terminals we target render them.
	5. Otherwise use East Asian Width of the cluster's first visible code point, and add widths for trailing spacing marks and Halfwidth/Fullwidth Forms within the same cluster (e.g., dakuten/handakuten/prolonged sound mark).
*/

const segmenter = new Intl.Segmenter();

// Matches a visible (printing) character. Used to find the base scalar of a cluster (skipping leading Prepend/Format/Marks) and to detect whole-cluster zero-width.
// Intentionally a single negated class without a quantifier: a repeated pattern like `^(?:…|…)+$` backtracks exponentially on overlapping properties, and even `^[…]+$` overflows V8's backtrack stack (RangeError) on clusters with millions of marks.
const visibleCharacterRegex = /[^\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Nonspacing_Mark}\p{Enclosing_Mark}\p{Surrogate}]/v;
const spacingMarkRegex = /\p{Spacing_Mark}/v;

// RGI emoji sequences
const rgiEmojiRegex = /^\p{RGI_Emoji}$/v;

// Detect minimally-qualified/unqualified emoji sequences (missing VS16 but still render as double-width)
const unqualifiedKeycapRegex = /^[\d#*]\u20E3$/;
const extendedPictographicRegex = /\p{Extended_Pictographic}/gu;

function isDoubleWidthNonRgiEmojiSequence(segment) {
	// Real emoji clusters are < 30 chars; guard against pathological input
	if (segment.length > 50) {
		return false;
	}

	if (unqualifiedKeycapRegex.test(segment)) {
		return true;
	}

	// ZWJ sequences with 2+ Extended_Pictographic
	if (segment.includes('\u200D')) {
		const pictographics = segment.match(extendedPictographicRegex);
		return pictographics !== null && pictographics.length >= 2;
	}

	return false;
}

// Returns the cluster starting at its first visible character, or `undefined` if the whole cluster is zero-width.
function baseVisible(segment) {
	const index = segment.search(visibleCharacterRegex);
	return index === -1 ? undefined : segment.slice(index);
}

function isHangulLeadingJamo(codePoint) {
	return (codePoint >= 0x11_00 && codePoint <= 0x11_5F)
		|| (codePoint >= 0xA9_60 && codePoint <= 0xA9_7C);
}

function isHangulVowelJamo(codePoint) {
	return (codePoint >= 0x11_60 && codePoint <= 0x11_A7)
		|| (codePoint >= 0xD7_B0 && codePoint <= 0xD7_C6);
}

function isHangulTrailingJamo(codePoint) {
	return (codePoint >= 0x11_A8 && codePoint <= 0x11_FF)
		|| (codePoint >= 0xD7_CB && codePoint <= 0xD7_FB);
}

function isHangulJamo(codePoint) {
	return isHangulLeadingJamo(codePoint)
		|| isHangulVowelJamo(codePoint)
		|| isHangulTrailingJamo(codePoint);
}

function hangulClusterWidth(visibleSegment, eastAsianWidthOptions) {
	const codePoints = [];

	for (const character of visibleSegment) {
		if (!visibleCharacterRegex.test(character)) {
			continue;
		}

		codePoints.push(character.codePointAt(0));
	}

	if (codePoints.length === 0) {
		return undefined;
	}

	let width = 0;

	for (let index = 0; index < codePoints.length; index++) {
		const codePoint = codePoints[index];
		if (!isHangulJamo(codePoint)) {
			if (width === 0) {
				return undefined;
			}

			// Mixed cluster (e.g., L + precomposed syllable): use EAW for non-jamo remainder
			for (let remaining = index; remaining < codePoints.length; remaining++) {
				width += eastAsianWidth(codePoints[remaining], eastAsianWidthOptions);
			}

			return width;
		}

		// Modern Hangul L+V(+T) shapes as one syllable block. Unmatched jamo stay additive:
		// U+1100 U+1100 U+1161 => U+1100 + (U+1100 U+1161) => 2 + 2.
		if (
			isHangulLeadingJamo(codePoint)
			&& isHangulVowelJamo(codePoints[index + 1])
		) {
			width += 2;
			index += isHangulTrailingJamo(codePoints[index + 2]) ? 2 : 1;
			continue;
		}

		width += eastAsianWidth(codePoint, eastAsianWidthOptions);
	}

	return width;
}

function trailingWidth(visibleSegment, eastAsianWidthOptions) {
	let extra = 0;
	let first = true;

	for (const character of visibleSegment) {
		if (first) {
			first = false;
			continue;
		}

		if (
			spacingMarkRegex.test(character)
			|| (character >= '\uFF00' && character <= '\uFFEF')
		) {
			extra += eastAsianWidth(character.codePointAt(0), eastAsianWidthOptions);
		}
	}

	return extra;
}

function stringWidth(input, options = {}) {
	if (typeof input !== 'string' || input.length === 0) {
		return 0;
	}

	const {
		ambiguousIsNarrow = true,
		countAnsiEscapeCodes = false,
	} = options;

	let string = input;

	// Avoid calling stripAnsi when there are no ANSI escape sequences (ESC = 0x1B, CSI = 0x9B)
	if (!countAnsiEscapeCodes && (string.includes('\u001B') || string.includes('\u009B'))) {
		string = stripAnsi(string);
	}

	if (string.length === 0) {
		return 0;
	}

	// Fast path: printable ASCII (0x20–0x7E) needs no segmenter, regex, or EAW lookup — width equals length.
	if (/^[\u0020-\u007E]*$/.test(string)) {
		return string.length;
	}

	let width = 0;
	const eastAsianWidthOptions = {ambiguousAsWide: !ambiguousIsNarrow};

	for (const {segment} of segmenter.segment(string)) {
		// Zero-width / non-printing clusters
		const visibleSegment = baseVisible(segment);
		if (visibleSegment === undefined) {
			continue;
		}

		// Emoji width logic
		if (rgiEmojiRegex.test(segment) || isDoubleWidthNonRgiEmojiSequence(segment)) {
			width += 2;
			continue;
		}

		const hangulWidth = hangulClusterWidth(visibleSegment, eastAsianWidthOptions);
		if (hangulWidth !== undefined) {
			width += hangulWidth;
			continue;
		}

		// Everything else: EAW of the cluster’s first visible scalar
		const codePoint = visibleSegment.codePointAt(0);
		width += eastAsianWidth(codePoint, eastAsianWidthOptions);

		// Add width for trailing spacing marks and Halfwidth/Fullwidth Forms (e.g., ﾞ, ﾟ, ｰ)
		width += trailingWidth(visibleSegment, eastAsianWidthOptions);
	}

	return width;
}

;// CONCATENATED MODULE: ./node_modules/is-interactive/index.js
function isInteractive({stream = process.stdout} = {}) {
	return Boolean(
		stream && stream.isTTY &&
		process.env.TERM !== 'dumb' &&
		!('CI' in process.env)
	);
}

;// CONCATENATED MODULE: ./node_modules/stdin-discarder/index.js


const ASCII_ETX_CODE = 0x03; // Ctrl+C

class StdinDiscarder {
	#activeCount = 0;
	#stdin;
	#stdinWasPaused = false;
	#stdinWasRaw = false;
	#handleInputBound = chunk => {
		if (!chunk?.length) {
			return;
		}

		const code = typeof chunk === 'string' ? chunk.codePointAt(0) : chunk[0];
		if (code === ASCII_ETX_CODE) {
			// Always re-signal the process. Emitting `SIGINT` directly breaks normal Ctrl+C termination when libraries install listeners for cleanup.
			external_node_process_.kill(external_node_process_.pid, 'SIGINT');
		}
	};

	start() {
		this.#activeCount++;
		if (this.#activeCount === 1) {
			this.#realStart();
		}
	}

	stop() {
		if (this.#activeCount === 0) {
			return;
		}

		if (--this.#activeCount === 0) {
			this.#realStop();
		}
	}

	#realStart() {
		const {stdin} = external_node_process_;

		if (external_node_process_.platform === 'win32' || !stdin?.isTTY || typeof stdin.setRawMode !== 'function') {
			this.#stdin = undefined;
			return;
		}

		this.#stdin = stdin;
		this.#stdinWasPaused = stdin.isPaused();
		this.#stdinWasRaw = Boolean(stdin.isRaw);

		stdin.setRawMode(true);
		stdin.prependListener('data', this.#handleInputBound);

		if (this.#stdinWasPaused) {
			stdin.resume();
		}
	}

	#realStop() {
		if (!this.#stdin) {
			return;
		}

		const stdin = this.#stdin;

		stdin.off('data', this.#handleInputBound);

		if (stdin.isTTY) {
			stdin.setRawMode?.(this.#stdinWasRaw);
		}

		if (this.#stdinWasPaused) {
			stdin.pause();
		}

		this.#stdin = undefined;
		this.#stdinWasPaused = false;
		this.#stdinWasRaw = false;
	}
}

const stdinDiscarder = new StdinDiscarder();

/* harmony default export */ const stdin_discarder = (Object.freeze(stdinDiscarder));

;// CONCATENATED MODULE: ./node_modules/ora/index.js











// Constants
const RENDER_DEFERRAL_TIMEOUT = 200; // Milliseconds to wait before re-rendering after partial chunk write
const SYNCHRONIZED_OUTPUT_ENABLE = '\u001B[?2026h';
const SYNCHRONIZED_OUTPUT_DISABLE = '\u001B[?2026l';

// Global state for concurrent spinner detection
const activeHooksPerStream = new Map(); // Stream → ora instance

const validColors = new Set(['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray']);

class Ora {
	#linesToClear = 0;
	#frameIndex = -1;
	#lastFrameTime = 0;
	#options;
	#spinner;
	#stream;
	#id;
	#hookedStreams = new Map();
	#isInternalWrite = false;
	#drainHandler;
	#deferRenderTimer;
	#isDiscardingStdin = false;
	#color;

	// Helper to execute writes while preventing hook recursion
	#internalWrite(fn) {
		this.#isInternalWrite = true;
		try {
			return fn();
		} finally {
			this.#isInternalWrite = false;
		}
	}

	// Helper to render if still spinning
	#tryRender() {
		if (this.isSpinning) {
			this.render();
		}
	}

	#stringifyChunk(chunk, encoding) {
		if (chunk === undefined || chunk === null) {
			return '';
		}

		if (typeof chunk === 'string') {
			return chunk;
		}

		/* eslint-disable n/prefer-global/buffer */
		if (Buffer.isBuffer(chunk) || ArrayBuffer.isView(chunk)) {
			const normalizedEncoding = (typeof encoding === 'string' && encoding && encoding !== 'buffer') ? encoding : 'utf8';
			return Buffer.from(chunk).toString(normalizedEncoding);
		}
		/* eslint-enable n/prefer-global/buffer */

		return String(chunk);
	}

	#chunkTerminatesLine(chunkString) {
		if (!chunkString) {
			return false;
		}

		const lastCharacter = chunkString.at(-1);
		return lastCharacter === '\n' || lastCharacter === '\r';
	}

	#scheduleRenderDeferral() {
		// If already deferred, don't reset timer - let it complete
		if (this.#deferRenderTimer) {
			return;
		}

		this.#deferRenderTimer = setTimeout(() => {
			this.#deferRenderTimer = undefined;

			if (this.isSpinning) {
				this.#tryRender();
			}
		}, RENDER_DEFERRAL_TIMEOUT);

		if (typeof this.#deferRenderTimer?.unref === 'function') {
			this.#deferRenderTimer.unref();
		}
	}

	#clearRenderDeferral() {
		if (this.#deferRenderTimer) {
			clearTimeout(this.#deferRenderTimer);
			this.#deferRenderTimer = undefined;
		}
	}

	// Helper to build complete line with symbol, text, prefix, and suffix
	#buildOutputLine(symbol, text, prefixText, suffixText) {
		const fullPrefixText = this.#getFullPrefixText(prefixText, ' ');
		const separatorText = symbol ? ' ' : '';
		const fullText = (typeof text === 'string') ? separatorText + text : '';
		const fullSuffixText = this.#getFullSuffixText(suffixText, ' ');
		return fullPrefixText + symbol + fullText + fullSuffixText;
	}

	constructor(options) {
		if (typeof options === 'string') {
			options = {
				text: options,
			};
		}

		this.#options = {
			color: 'cyan',
			stream: external_node_process_.stderr,
			discardStdin: true,
			hideCursor: true,
			...options,
		};

		// Public
		this.color = this.#options.color;

		this.#stream = this.#options.stream;

		// Normalize isEnabled and isSilent into options
		if (typeof this.#options.isEnabled !== 'boolean') {
			this.#options.isEnabled = isInteractive({stream: this.#stream});
		}

		if (typeof this.#options.isSilent !== 'boolean') {
			this.#options.isSilent = false;
		}

		if (this.#options.interval !== undefined && !(Number.isInteger(this.#options.interval) && this.#options.interval > 0)) {
			throw new Error('The `interval` option must be a positive integer');
		}

		// Set *after* `this.#stream`.
		// Store original interval before spinner setter clears it
		const userInterval = this.#options.interval;
		// It's important that these use the public setters.
		this.spinner = this.#options.spinner;
		this.#options.interval = userInterval;
		this.text = this.#options.text;
		this.prefixText = this.#options.prefixText;
		this.suffixText = this.#options.suffixText;
		this.indent = this.#options.indent;

		if (external_node_process_.env.NODE_ENV === 'test') {
			this._stream = this.#stream;
			this._isEnabled = this.#options.isEnabled;

			Object.defineProperty(this, '_linesToClear', {
				get() {
					return this.#linesToClear;
				},
				set(newValue) {
					this.#linesToClear = newValue;
				},
			});

			Object.defineProperty(this, '_frameIndex', {
				get() {
					return this.#frameIndex;
				},
			});

			Object.defineProperty(this, '_lineCount', {
				get() {
					const columns = this.#stream.columns ?? 80;
					const prefixText = typeof this.#options.prefixText === 'function' ? '' : this.#options.prefixText;
					const suffixText = typeof this.#options.suffixText === 'function' ? '' : this.#options.suffixText;
					const fullPrefixText = (typeof prefixText === 'string' && prefixText !== '') ? prefixText + ' ' : '';
					const fullSuffixText = (typeof suffixText === 'string' && suffixText !== '') ? ' ' + suffixText : '';
					const spinnerChar = '-';
					const fullText = ' '.repeat(this.#options.indent) + fullPrefixText + spinnerChar + (typeof this.#options.text === 'string' ? ' ' + this.#options.text : '') + fullSuffixText;
					return this.#computeLineCountFrom(fullText, columns);
				},
			});
		}
	}

	get indent() {
		return this.#options.indent;
	}

	set indent(indent = 0) {
		if (!(indent >= 0 && Number.isInteger(indent))) {
			throw new Error('The `indent` option must be an integer from 0 and up');
		}

		this.#options.indent = indent;
	}

	get interval() {
		return this.#options.interval ?? this.#spinner.interval ?? 100;
	}

	get spinner() {
		return this.#spinner;
	}

	set spinner(spinner) {
		this.#frameIndex = -1;
		this.#options.interval = undefined;

		if (typeof spinner === 'object') {
			if (!Array.isArray(spinner.frames) || spinner.frames.length === 0 || spinner.frames.some(frame => typeof frame !== 'string')) {
				throw new Error('The given spinner must have a non-empty `frames` array of strings');
			}

			if (spinner.interval !== undefined && !(Number.isInteger(spinner.interval) && spinner.interval > 0)) {
				throw new Error('`spinner.interval` must be a positive integer if provided');
			}

			this.#spinner = spinner;
		} else if (!isUnicodeSupported()) {
			this.#spinner = cli_spinners.line;
		} else if (spinner === undefined) {
			// Set default spinner
			this.#spinner = cli_spinners.dots;
		} else if (spinner !== 'default' && cli_spinners[spinner]) {
			this.#spinner = cli_spinners[spinner];
		} else {
			throw new Error(`There is no built-in spinner named '${spinner}'. See https://github.com/sindresorhus/cli-spinners/blob/main/spinners.json for a full list.`);
		}
	}

	get text() {
		return this.#options.text;
	}

	set text(value = '') {
		this.#options.text = value;
	}

	get prefixText() {
		return this.#options.prefixText;
	}

	set prefixText(value = '') {
		this.#options.prefixText = value;
	}

	get suffixText() {
		return this.#options.suffixText;
	}

	set suffixText(value = '') {
		this.#options.suffixText = value;
	}

	get isSpinning() {
		return this.#id !== undefined;
	}

	#formatAffix(value, separator, placeBefore = false) {
		const resolved = typeof value === 'function' ? value() : value;
		if (typeof resolved === 'string' && resolved !== '') {
			return placeBefore ? (separator + resolved) : (resolved + separator);
		}

		return '';
	}

	#getFullPrefixText(prefixText = this.#options.prefixText, postfix = ' ') {
		return this.#formatAffix(prefixText, postfix, false);
	}

	#getFullSuffixText(suffixText = this.#options.suffixText, prefix = ' ') {
		return this.#formatAffix(suffixText, prefix, true);
	}

	#computeLineCountFrom(text, columns) {
		let count = 0;
		for (const line of (0,external_node_util_.stripVTControlCharacters)(text).split('\n')) {
			count += Math.max(1, Math.ceil(stringWidth(line) / columns));
		}

		return count;
	}

	get color() {
		return this.#color;
	}

	set color(value) {
		if (value !== undefined && value !== false && !validColors.has(value)) {
			throw new Error('The `color` option must be a valid color or `false` to disable');
		}

		this.#color = value;
	}

	get isEnabled() {
		return this.#options.isEnabled && !this.#options.isSilent;
	}

	set isEnabled(value) {
		if (typeof value !== 'boolean') {
			throw new TypeError('The `isEnabled` option must be a boolean');
		}

		this.#options.isEnabled = value;
	}

	get isSilent() {
		return this.#options.isSilent;
	}

	set isSilent(value) {
		if (typeof value !== 'boolean') {
			throw new TypeError('The `isSilent` option must be a boolean');
		}

		this.#options.isSilent = value;
	}

	frame() {
		// Only advance frame if enough time has passed (throttle to interval)
		const now = Date.now();
		if (this.#frameIndex === -1 || now - this.#lastFrameTime >= this.interval) {
			this.#frameIndex = (this.#frameIndex + 1) % this.#spinner.frames.length;
			this.#lastFrameTime = now;
		}

		const {frames} = this.#spinner;
		let frame = frames[this.#frameIndex];

		if (this.#color) {
			frame = source[this.#color](frame);
		}

		const fullPrefixText = this.#getFullPrefixText(this.#options.prefixText, ' ');
		const fullText = typeof this.text === 'string' ? ' ' + this.text : '';
		const fullSuffixText = this.#getFullSuffixText(this.#options.suffixText, ' ');

		return fullPrefixText + frame + fullText + fullSuffixText;
	}

	clear() {
		if (!this.isEnabled || !this.#stream.isTTY) {
			return this;
		}

		// Protect cursor control methods (cursorTo, moveCursor, clearLine) which internally call stream.write
		this.#internalWrite(() => {
			this.#stream.cursorTo(0);

			for (let index = 0; index < this.#linesToClear; index++) {
				if (index > 0) {
					this.#stream.moveCursor(0, -1);
				}

				this.#stream.clearLine(1);
			}

			if (this.#options.indent) {
				this.#stream.cursorTo(this.#options.indent);
			}
		});

		this.#linesToClear = 0;

		return this;
	}

	// Helper to hook a single stream
	#hookStream(stream) {
		if (!stream || this.#hookedStreams.has(stream) || !stream.isTTY || typeof stream.write !== 'function') {
			return;
		}

		// Detect concurrent spinners
		if (activeHooksPerStream.has(stream)) {
			console.warn('[ora] Multiple concurrent spinners detected. This may cause visual corruption. Use one spinner at a time.');
		}

		const originalWrite = stream.write;
		this.#hookedStreams.set(stream, originalWrite);
		activeHooksPerStream.set(stream, this);
		stream.write = (chunk, encoding, callback) => this.#hookedWrite(stream, originalWrite, chunk, encoding, callback);
	}

	/**
	Intercept stream writes while spinner is active to handle external writes cleanly without visual corruption.
	Hooks process stdio streams and the active spinner stream so console.log(), console.error(), and direct writes stay tidy.
	*/
	#installHook() {
		if (!this.isEnabled || this.#hookedStreams.size > 0) {
			return;
		}

		const streamsToHook = new Set([this.#stream, external_node_process_.stdout, external_node_process_.stderr]);

		for (const stream of streamsToHook) {
			this.#hookStream(stream);
		}
	}

	#uninstallHook() {
		for (const [stream, originalWrite] of this.#hookedStreams) {
			stream.write = originalWrite;
			if (activeHooksPerStream.get(stream) === this) {
				activeHooksPerStream.delete(stream);
			}
		}

		this.#hookedStreams.clear();
	}

	// eslint-disable-next-line max-params -- Need stream and originalWrite for multi-stream support
	#hookedWrite(stream, originalWrite, chunk, encoding, callback) {
		// Handle both write(chunk, encoding, callback) and write(chunk, callback) signatures
		if (typeof encoding === 'function') {
			callback = encoding;
			encoding = undefined;
		}

		// Pass through our own internal writes (spinner rendering, cursor control)
		if (this.#isInternalWrite) {
			return originalWrite.call(stream, chunk, encoding, callback);
		}

		// External write detected - clear spinner, write content, re-render if appropriate
		this.clear();

		const chunkString = this.#stringifyChunk(chunk, encoding);
		const chunkTerminatesLine = this.#chunkTerminatesLine(chunkString);

		const writeResult = originalWrite.call(stream, chunk, encoding, callback);

		// Schedule or clear render deferral based on chunk content
		if (chunkTerminatesLine) {
			this.#clearRenderDeferral();
		} else if (chunkString.length > 0) {
			this.#scheduleRenderDeferral();
		}

		// Re-render spinner below the new output if still spinning and not deferred
		if (this.isSpinning && !this.#deferRenderTimer) {
			this.render();
		}

		return writeResult;
	}

	render() {
		if (!this.isEnabled || this.#drainHandler || this.#deferRenderTimer) {
			return this;
		}

		const useSynchronizedOutput = this.#stream.isTTY;
		let shouldDisableSynchronizedOutput = false;

		try {
			if (useSynchronizedOutput) {
				this.#internalWrite(() => this.#stream.write(SYNCHRONIZED_OUTPUT_ENABLE));
				shouldDisableSynchronizedOutput = true;
			}

			this.clear();

			let frameContent = this.frame();
			const columns = this.#stream.columns ?? 80;
			const actualLineCount = this.#computeLineCountFrom(frameContent, columns);

			// If content would exceed viewport height, truncate it to prevent garbage
			const consoleHeight = this.#stream.rows;
			if (consoleHeight && consoleHeight > 1 && actualLineCount > consoleHeight) {
				const lines = frameContent.split('\n');
				const maxLines = consoleHeight - 1; // Reserve one line for truncation message
				frameContent = [...lines.slice(0, maxLines), '... (content truncated to fit terminal)'].join('\n');
			}

			const canContinue = this.#internalWrite(() => this.#stream.write(frameContent));

			// Handle backpressure - pause rendering if stream buffer is full
			if (canContinue === false && this.#stream.isTTY) {
				this.#drainHandler = () => {
					this.#drainHandler = undefined;
					this.#tryRender();
				};

				this.#stream.once('drain', this.#drainHandler);
			}

			this.#linesToClear = this.#computeLineCountFrom(frameContent, columns);
		} finally {
			if (shouldDisableSynchronizedOutput) {
				this.#internalWrite(() => this.#stream.write(SYNCHRONIZED_OUTPUT_DISABLE));
			}
		}

		return this;
	}

	start(text) {
		if (text !== undefined) {
			this.text = text;
		}

		if (this.isSilent) {
			return this;
		}

		if (!this.isEnabled) {
			const symbol = this.text ? '-' : '';
			const line = ' '.repeat(this.#options.indent) + this.#buildOutputLine(symbol, this.text, this.#options.prefixText, this.#options.suffixText);

			if (line.trim() !== '') {
				this.#internalWrite(() => this.#stream.write(line + '\n'));
			}

			return this;
		}

		if (this.isSpinning) {
			return this;
		}

		if (this.#options.hideCursor) {
			cli_cursor.hide(this.#stream);
		}

		if (this.#options.discardStdin && external_node_process_.stdin.isTTY) {
			stdin_discarder.start();
			this.#isDiscardingStdin = true;
		}

		this.#installHook();
		this.render();
		this.#id = setInterval(this.render.bind(this), this.interval);

		return this;
	}

	stop() {
		clearInterval(this.#id);
		this.#id = undefined;
		this.#frameIndex = -1;
		this.#lastFrameTime = 0;

		this.#clearRenderDeferral();
		this.#uninstallHook();

		// Clean up drain handler if it exists
		if (this.#drainHandler) {
			this.#stream.removeListener('drain', this.#drainHandler);
			this.#drainHandler = undefined;
		}

		if (this.isEnabled) {
			this.clear();
			if (this.#options.hideCursor) {
				cli_cursor.show(this.#stream);
			}
		}

		if (this.#isDiscardingStdin) {
			this.#isDiscardingStdin = false;
			stdin_discarder.stop();
		}

		return this;
	}

	succeed(text) {
		return this.stopAndPersist({symbol: success, text});
	}

	fail(text) {
		return this.stopAndPersist({symbol: error, text});
	}

	warn(text) {
		return this.stopAndPersist({symbol: warning, text});
	}

	info(text) {
		return this.stopAndPersist({symbol: info, text});
	}

	stopAndPersist(options = {}) {
		if (this.isSilent) {
			return this;
		}

		const symbol = options.symbol ?? ' ';
		const text = options.text ?? this.text;
		const prefixText = options.prefixText ?? this.#options.prefixText;
		const suffixText = options.suffixText ?? this.#options.suffixText;

		const textToWrite = this.#buildOutputLine(symbol, text, prefixText, suffixText) + '\n';

		this.stop();
		this.#internalWrite(() => this.#stream.write(textToWrite));

		return this;
	}
}

function ora(options) {
	return new Ora(options);
}

async function oraPromise(action, options) {
	const actionIsFunction = typeof action === 'function';
	const actionIsPromise = typeof action?.then === 'function';

	if (!actionIsFunction && !actionIsPromise) {
		throw new TypeError('Parameter `action` must be a Function or a Promise');
	}

	const {
		successText,
		failText,
		successSymbol,
		failSymbol,
	} = (typeof options === 'object' && options !== null)
		? options
		: {};

	const spinner = ora(options).start();

	try {
		const promise = actionIsFunction ? action(spinner) : action;
		const result = await promise;

		const text = successText === undefined
			? undefined
			: (typeof successText === 'string' ? successText : successText(result));

		if (successSymbol === undefined) {
			spinner.succeed(text);
		} else {
			spinner.stopAndPersist({symbol: successSymbol, text});
		}

		return result;
	} catch (error) {
		const text = failText === undefined
			? undefined
			: (typeof failText === 'string' ? failText : failText(error));

		if (failSymbol === undefined) {
			spinner.fail(text);
		} else {
			spinner.stopAndPersist({symbol: failSymbol, text});
		}

		throw error;
	}
}



;// CONCATENATED MODULE: ./src/run/redaction.ts
// One list of the step's known secrets and one redaction for everything the action writes where GitHub masks
// nothing: comments and pull-request bodies (every API call, github/api.ts), the job summary and the
// outputs. GitHub masks registered values in the log only. The list is the scan's (secret-values.ts): the
// token, the values of `credentials`, secret-named `env` values, each in every form the scan knows.
// One pass over the text (Aho-Corasick over all forms at once): its cost grows with the text, not with the
// number of forms. Where two forms overlap, all of both goes. A cut (`…`, or the end of the text: a
// line or a reply cut short) that leaves the start of a form, 4 characters or more, masks that start too.
// Not covered: the end of a form at the start of a text; forms the scan does not know. Pure.

const MASK = '***';
/** The character the action's cuts end with: what stands before it may be the start of a secret. */
const CUT = '…'.charCodeAt(0);
/** The shortest start of a form masked at a cut: shorter ones tell nothing and would blank out text. */
const MIN_PIECE = 4;
class Redaction {
    static none = new Redaction([]);
    /** The known secrets of a run's settings, in every form. */
    static of(secrets) {
        return new Redaction(allForms(secrets));
    }
    // The automaton: node 0 is the root; a node is the prefix of a form that leads to it.
    next = [new Map()];
    fail = [0];
    depth = [0];
    /** The longest form that ends at the node (its own, or one its fail links reach); 0: none. */
    longest = [0];
    /** That form's name (`env API_KEY (base64)`). */
    rule = [''];
    constructor(needles) {
        for (const { text, rule } of needles) {
            let node = 0;
            for (let i = 0; i < text.length; i++) {
                const c = text.charCodeAt(i);
                let child = this.next[node].get(c);
                if (child === undefined) {
                    child = this.next.length;
                    this.next.push(new Map());
                    this.fail.push(0);
                    this.depth.push(this.depth[node] + 1);
                    this.longest.push(0);
                    this.rule.push('');
                    this.next[node].set(c, child);
                }
                node = child;
            }
            if (text.length > this.longest[node])
                [this.longest[node], this.rule[node]] = [text.length, rule];
        }
        // Fail links, breadth first: a node's link is the longest proper suffix of its prefix that is a node.
        const queue = [...this.next[0].values()];
        for (let q = 0; q < queue.length; q++) {
            const node = queue[q];
            for (const [c, child] of this.next[node]) {
                let f = this.fail[node];
                while (f !== 0 && !this.next[f].has(c))
                    f = this.fail[f];
                const to = this.next[f].get(c);
                this.fail[child] = to !== undefined && to !== child ? to : 0;
                if (this.longest[this.fail[child]] > this.longest[child])
                    [this.longest[child], this.rule[child]] = [
                        this.longest[this.fail[child]],
                        this.rule[this.fail[child]],
                    ];
                queue.push(child);
            }
        }
    }
    /** How many forms' characters the automaton holds (0: nothing to redact). */
    get size() {
        return this.next.length - 1;
    }
    /** `text` with every known form of every secret, and every start of one at a cut, replaced by `***`. */
    redact = (text) => {
        if (this.size === 0 || !text)
            return text;
        const { starts, ends } = this.scan(text);
        if (!starts.length)
            return text;
        let out = '';
        let at = 0;
        for (let i = 0; i < starts.length; i++) {
            out += text.slice(at, starts[i]) + MASK;
            at = ends[i];
        }
        return out + text.slice(at);
    };
    /** The names of the forms found whole in `text` (`credentials for api.example.com (base64)`), each once. */
    namesIn(text) {
        return this.size === 0 || !text ? [] : [...this.scan(text).names];
    }
    /** The spans to mask, in order and apart (overlapping and touching ones merged), and the forms found. */
    scan(text) {
        const starts = [];
        const ends = [];
        const names = new Set();
        // Spans come in order of their ends; a new one swallows those it covers and joins one it touches.
        const add = (start, end) => {
            while (starts.length && starts[starts.length - 1] >= start) {
                starts.pop();
                end = Math.max(end, ends.pop());
            }
            if (ends.length && ends[ends.length - 1] >= start)
                ends[ends.length - 1] = Math.max(ends[ends.length - 1], end);
            else {
                starts.push(start);
                ends.push(end);
            }
        };
        let node = 0;
        for (let i = 0; i < text.length; i++) {
            const c = text.charCodeAt(i);
            if (c === CUT && this.depth[node] >= MIN_PIECE)
                add(i - this.depth[node], i);
            while (node !== 0 && !this.next[node].has(c))
                node = this.fail[node];
            node = this.next[node].get(c) ?? 0;
            const length = this.longest[node];
            if (length) {
                add(i + 1 - length, i + 1);
                names.add(this.rule[node]);
            }
        }
        if (this.depth[node] >= MIN_PIECE)
            add(text.length - this.depth[node], text.length);
        return { starts, ends, names };
    }
}
/** The redaction of a run: its token, its credentials' values and its secret-named env values. */
function redactionFor(settings) {
    return Redaction.of(knownSecrets(settings));
}

;// CONCATENATED MODULE: ./src/cli/terminal-ui.ts
// The core's Ui on a terminal: a spinner on long steps when attached to a TTY (ora), plain lines otherwise.
// Each line goes through the one redaction (run/redaction.ts): every form it knows of each `mask`ed value.




/**
 * `quiet`: no progress lines (warnings still show); `spinner` with `quiet`: a spinner on long steps all the
 * same when on a TTY (for commands whose result is a table or JSON on stdout).
 */
function terminalUi(options = {}) {
    const stream = options.stream ?? process.stderr;
    // A terminal of zero columns (a pseudo-terminal nobody sized, e.g. `script` under cron) would make the
    // spinner's line arithmetic divide by zero and redraw forever: plain lines there.
    const tty = Boolean(stream.isTTY) && !process.env.CI && (stream.columns ?? 0) > 0;
    const secrets = [];
    let redaction;
    let spinner;
    // A value too short for the redaction's forms is still masked as written, as GitHub masks it in the log.
    const scrub = (text) => secrets
        .filter((s) => s.value.length < MIN_SECRET_LENGTH)
        .reduce((t, s) => t.split(s.value).join(MASK), (redaction ??= Redaction.of(secrets)).redact(text));
    const line = (text) => {
        if (!options.quiet)
            stream.write(`${scrub(text)}\n`);
    };
    return {
        info: line,
        debug: (m) => {
            if (options.debug)
                line(`debug: ${m}`);
        },
        debugging: !!options.debug && !options.quiet,
        warning: (m) => {
            // Above the spinner, not through it.
            spinner?.clear();
            stream.write(`warning: ${scrub(m)}\n`);
            if (spinner?.isSpinning)
                spinner.render();
        },
        mask: (value) => {
            if (!value)
                return;
            secrets.push({ name: 'masked', value });
            redaction = undefined;
        },
        async group(title, fn) {
            if (!tty || (options.quiet && !options.spinner)) {
                line(`== ${title}`);
                return fn();
            }
            // isEnabled: the TTY decision is made above (ora would also give up whenever CI is set, even empty).
            const own = ora({ text: title, stream, isEnabled: true }).start();
            spinner = own;
            try {
                const result = await fn();
                if (own.isSpinning)
                    own.succeed();
                return result;
            }
            catch (error) {
                if (own.isSpinning)
                    own.fail();
                throw error;
            }
            finally {
                spinner = undefined;
            }
        },
        // Report text goes with the other progress lines (stderr); the command's output alone is on stdout.
        fenced: (text) => {
            for (const l of text.split('\n'))
                line(l);
        },
        // On a terminal the command's output needs no fencing: it is shown as it comes, secrets scrubbed
        // (a spinner stops first, so that lines are not drawn over).
        untrusted: async (fn) => {
            const write = streamLineWriter(process.stdout, (text) => {
                if (spinner?.isSpinning)
                    spinner.stopAndPersist({ symbol: '▶' });
                return `${scrub(text)}\n`;
            });
            try {
                return await fn(write);
            }
            finally {
                await write.drained?.();
            }
        },
    };
}

;// CONCATENATED MODULE: ./src/cli/list-command.ts
// `worktree-sandbox list`: every sandbox on the machine (disk and volume) as the reaper sees it: its
// state now and when a reap with the same retention would remove it.





async function listCommand(settings, json) {
    const ui = terminalUi({ quiet: true, spinner: true });
    const found = await listSandboxes(reapOptionsFrom(settings), ui);
    const entries = listEntries(found);
    if (json) {
        process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
        return;
    }
    process.stdout.write(entries.length
        ? `${listText(entries, found.nowMs)}\n`
        : `No sandboxes under ${found.root} or in volumes ${settings.volumePrefix}-*.\n`);
}
function listEntries(found) {
    return found.sandboxes
        .map(({ facts, decision, branch }) => {
        const state = sandboxState(facts);
        const outlook = removalOutlook(facts, decision, found.policy, found.nowMs);
        return {
            project: facts.project,
            sandbox: facts.sandbox,
            isolation: facts.isolation,
            where: facts.where,
            class: decision.class,
            branch: branch ?? null,
            ageDays: decision.ageDays ?? null,
            lastActivity: facts.lastActivityMs === undefined ? null : new Date(facts.lastActivityMs).toISOString(),
            sizeBytes: facts.sizeBytes ?? null,
            state: state.state,
            stateDetail: state.detail ?? null,
            removal: {
                when: outlook.when,
                after: outlook.afterMs === undefined ? null : new Date(outlook.afterMs).toISOString(),
                reason: outlook.reason,
            },
        };
    })
        .sort((a, b) => Number(a.class === 'not-a-sandbox') - Number(b.class === 'not-a-sandbox') ||
        a.project.localeCompare(b.project) ||
        a.sandbox.localeCompare(b.sandbox) ||
        a.where.localeCompare(b.where));
}
function listText(entries, nowMs) {
    return formatTable(['PROJECT', 'SANDBOX', 'ISOLATION', 'CLASS', 'BRANCH', 'AGE', 'SIZE', 'STATE', 'REMOVAL', 'DETAIL'], entries.map((e) => [
        e.project || '–',
        e.sandbox || e.where,
        e.isolation === 'disk' ? 'disk' : 'volume',
        e.class,
        e.branch ?? '–',
        formatDays(e.ageDays),
        e.sizeBytes === null ? '–' : formatBytes(e.sizeBytes),
        e.state,
        removalText(e, nowMs),
        e.removal.reason,
    ]));
}
function removalText(e, nowMs) {
    switch (e.removal.when) {
        case 'next reap':
            return 'next reap';
        case 'never':
            return 'never';
        case 'kept':
            return e.state === 'clean' ? 'kept' : `kept (${e.state})`;
        case 'after': {
            const at = Date.parse(e.removal.after);
            return `after ${formatDate(at)} (${formatDays(Math.max(0, Math.ceil((at - nowMs) / 86_400_000)))})`;
        }
    }
}

;// CONCATENATED MODULE: ./src/cli/reap-command.ts
// `worktree-sandbox reap`: the action's reap mode from a terminal or a cron job. The same reaper; its
// result as a text table (every entry, the most telling first) or as JSON.




async function reapCommand(settings, json) {
    const ui = terminalUi({ quiet: true, spinner: true });
    const result = await reap(reapOptionsFrom(settings), ui);
    process.stdout.write(json ? `${JSON.stringify(reapJson(result), null, 2)}\n` : reapText(result));
    const partly = result.sandboxes.filter((s) => s.result === 'partly removed');
    if (partly.length)
        ui.warning(`${partly.length} sandbox(es) could only be partly removed: ${partly.map((s) => s.where).join(', ')}`);
    const notRemoved = result.sandboxes.filter((s) => s.failed);
    if (notRemoved.length)
        ui.warning(`${notRemoved.length} sandbox(es) could not be removed and are kept: ${notRemoved.map((s) => `${s.where} (${JSON.stringify(s.detail ?? '')})`).join(', ')}`);
}
function reapJson(result) {
    return {
        dryRun: result.dryRun,
        found: result.stats.found,
        stale: result.stats.stale,
        freedBytes: result.freedBytes,
        warnings: result.warnings,
        sandboxes: byInterest(result.sandboxes).map((s) => ({
            result: s.result,
            project: s.project,
            sandbox: s.sandbox,
            isolation: s.isolation,
            where: s.where,
            class: s.class,
            ageDays: s.ageDays ?? null,
            sizeBytes: s.sizeBytes ?? null,
            reason: reason(s),
            archived: s.archived ?? [],
        })),
    };
}
function reapText(result) {
    const sorted = byInterest(result.sandboxes);
    const headline = `Reap${result.dryRun ? ' (dry run: nothing removed)' : ''}: ${reapTally(result)}`;
    if (sorted.length === 0)
        return `${headline}\n`;
    const table = formatTable(['RESULT', 'PROJECT', 'SANDBOX', 'ISOLATION', 'CLASS', 'AGE', 'SIZE', 'REASON'], sorted.map((s) => [
        s.result,
        s.project,
        s.sandbox || s.where,
        s.isolation === 'disk' ? 'disk' : 'volume',
        s.class,
        formatDays(s.ageDays),
        s.sizeBytes === undefined ? '–' : formatBytes(s.sizeBytes),
        reason(s),
    ]));
    return `${headline}\n\n${table}\n`;
}
/** The RESULT column already says "would remove". */
function reason(s) {
    return s.result === 'would remove' ? s.reason : reasonOf(s);
}

;// CONCATENATED MODULE: ./src/cli/remove-by-name.ts
// One sandbox removed because a person asked (the CLI's `rm NAME`): found by the reaper's scan, looked at
// by the reaper's checks, judged by the reaper's gates (the age aside: the person judged it), removed by
// the reaper's execution: its lock taken, one last look at its activity, the work archived first when
// the gates say so, then removed with every record its parent keeps of it. A dry run stops after the
// judgement.







/**
 * Which scanned entry the query names. Sandboxes first: an entry that is not a sandbox is only matched
 * when no sandbox is (so that `rm` can say why it will not touch it).
 */
function matchSandbox(scanned, query, cwd = process.cwd()) {
    const asPath = external_node_path_.resolve(cwd, query.name);
    const named = scanned.filter((s) => (s.sandbox === query.name || s.where === query.name || (s.hostPath && s.hostPath === asPath)) &&
        (!query.project || s.project === query.project) &&
        (!query.isolation || s.isolation === query.isolation));
    const sandboxes = named.filter((s) => !s.notSandbox);
    const candidates = sandboxes.length ? sandboxes : named;
    if (candidates.length === 1)
        return { found: candidates[0] };
    return { candidates, problem: candidates.length ? 'ambiguous' : 'none' };
}
async function removeByName(options, ui = silentUi) {
    const nowMs = options.now ?? Date.now();
    const opened = await openReaper(options, ui);
    const { git, engine, helperImage, scan, diskHelpersRefused } = opened;
    const warnings = scan.warnings;
    const match = matchSandbox(scan.sandboxes, options);
    if (!match.found)
        return {
            status: match.problem === 'none' ? 'not found' : 'ambiguous',
            candidates: match.candidates,
            warnings,
        };
    const sandbox = match.found;
    const facts = factsOf(sandbox);
    if (!sandbox.notSandbox)
        await ui.group(`Check ${sandbox.project}/${sandbox.sandbox}`, () => lookCloser([sandbox], new Map([[sandbox.key, facts]]), {
            git,
            engine,
            image: helperImage,
            diskHelpersRefused,
        }));
    const decision = decideOnRequest(facts, { retention: options.retention, force: options.force, archive: true }, nowMs);
    if (decision.action === 'keep')
        return { status: 'kept', sandbox, decision, facts, warnings };
    if (options.dryRun) {
        // As reap's dry run does: a removal would measure what it frees.
        if (decision.sizeBytes === undefined && sandbox.hostPath)
            decision.sizeBytes = measureTree(sandbox.hostPath);
        return { status: 'would remove', sandbox, decision, facts, warnings };
    }
    const outcomes = await ui.group(`Remove ${sandbox.project}/${sandbox.sandbox}`, () => carryOut([{ decision, sandbox }], removalDeps(opened, {
        archiveDir: options.archiveDir,
        now: new Date(nowMs),
        log: (line) => ui.info(line),
    })));
    const outcome = outcomes.get(decision.key);
    return { status: outcome.status, sandbox, decision, facts, outcome, warnings };
}

;// CONCATENATED MODULE: ./src/cli/rm-command.ts
// `worktree-sandbox rm NAME`: one sandbox removed with the reaper's gates. `--force` lifts the work gate
// (never the in-use gate); whatever a removal would lose (the work, or an orphan's files) is saved first,
// under `--archive-dir` or a private folder in the temp dir, and the files are named in the output.








async function rmCommand(settings, request) {
    const ui = terminalUi({ quiet: true, spinner: true });
    // A dry run creates nothing, not even the default archive folder.
    const archiveDir = settings.archiveDir || (settings.dryRun ? defaultArchivePath() : defaultArchiveDir());
    const { name, project, isolation } = request;
    const result = await removeByName({ ...reapOptionsFrom(settings), name, project, isolation, archiveDir }, ui);
    for (const warning of result.warnings)
        ui.warning(warning);
    if (result.status === 'not found' || result.status === 'ambiguous')
        throw unmatched(result, request, settings);
    const judged = result;
    const { sandbox, decision, outcome } = judged;
    const what = `${sandbox.project}/${sandbox.sandbox} (${sandbox.isolation === 'disk' ? sandbox.where : `volume ${sandbox.where}`})`;
    const archived = outcome?.archived ?? [];
    if (request.json)
        process.stdout.write(`${JSON.stringify({
            status: judged.status,
            dryRun: settings.dryRun,
            project: sandbox.project,
            sandbox: sandbox.sandbox,
            isolation: sandbox.isolation,
            where: sandbox.where,
            reason: decision.reason,
            sizeBytes: decision.sizeBytes ?? null,
            detail: outcome?.detail ?? null,
            archived,
            freedBytes: outcome?.freedBytes ?? 0,
            problems: outcome?.problems ?? [],
        }, null, 2)}\n`);
    switch (judged.status) {
        case 'would remove':
            if (!request.json)
                process.stdout.write(`Would remove ${what}: ${decision.reason}` +
                    (decision.sizeBytes === undefined ? '' : `; ${formatBytes(decision.sizeBytes)} would be freed`) +
                    '.\n' +
                    (decision.archive
                        ? `Would save first: ${decision.archive === 'work' ? 'its work' : 'its files'} under ${external_node_path_.join(archiveDir, sandbox.project)}\n`
                        : '') +
                    'Dry run: nothing removed.\n');
            return;
        case 'removed':
            if (!request.json)
                process.stdout.write(`Removed ${what}: ${decision.reason}; ${formatBytes(outcome.freedBytes)} freed.\n` +
                    (archived.length ? `Saved first: ${archived.join(', ')}\n` : ''));
            return;
        case 'kept':
            throw new CliExit(`kept ${what}: ${decision.reason}${hint(judged)}`, EXIT.refused);
        case 'skipped':
            throw new CliExit(`kept ${what}: ${outcome.detail}`, EXIT.refused);
        default:
            throw new CliExit(`${outcome.status} ${what}: ${outcome.detail ?? ''}${outcome.problems
                .slice(0, 3)
                .map((p) => `; ${p.path} (${p.error})`)
                .join('')}${archived.length ? `; saved first: ${archived.join(', ')}` : ''}`, EXIT.error);
    }
}
function unmatched(result, request, settings) {
    if (result.status === 'not found')
        return new CliExit(`no sandbox named ${JSON.stringify(request.name)}${request.project ? ` in project ${request.project}` : ''} under ${settings.worktreeRoot} or in volumes ${settings.volumePrefix}-* (see: worktree-sandbox list)`, EXIT.error);
    const names = result.candidates.map((c) => `${c.project}/${c.sandbox} (${c.isolation === 'disk' ? 'disk' : 'volume'})`);
    // Two of one project differ only by isolation.
    const sameProject = new Set(result.candidates.map((c) => c.project)).size < result.candidates.length;
    return new CliExit(`${JSON.stringify(request.name)} is ambiguous: it names ${names.join(', ')}; say which with --project${sameProject ? ' and --isolation' : ''}`, EXIT.usage);
}
function hint(result) {
    const work = result.facts.work?.state;
    if (result.facts.inUse || result.facts.notSandbox)
        return '';
    if (work === 'work' || work === 'unknown')
        return ' (--force removes it all the same, the work saved first under --archive-dir)';
    return '';
}
const defaultArchivePath = () => external_node_path_.join(external_node_os_.tmpdir(), `worktree-sandbox-archive-${process.getuid?.() ?? 'user'}`);
/**
 * `<tmp>/worktree-sandbox-archive-<uid>`, made private; refused when it is anything but our own folder
 * (another user could have planted a link there in a shared temp dir).
 */
function defaultArchiveDir() {
    const dir = defaultArchivePath();
    try {
        external_node_fs_.mkdirSync(dir, { mode: 0o700 });
    }
    catch (error) {
        if (error.code !== 'EEXIST')
            throw error;
    }
    const st = external_node_fs_.lstatSync(dir);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid()))
        throw new CliExit(`${dir} is not a folder of yours: name another with --archive-dir`, EXIT.error);
    return dir;
}

;// CONCATENATED MODULE: ./src/cli/commands.ts
// The CLI's subcommands on the core. Options arrive under the action's input names.












const camel = (name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
/** Reads commander's options as the action's inputs (so validation and defaults are the action's own). */
function optionReader(opts) {
    return (name) => {
        const value = opts[camel(name)];
        if (value === undefined || value === false)
            return '';
        if (value === true)
            return 'true';
        if (Array.isArray(value))
            return value.join('\n');
        return String(value);
    };
}
/** The most a `--credentials` file may hold: a few header lines, not a file given by mistake. */
const MAX_CREDENTIALS_FILE_BYTES = 64 * 1024;
/**
 * `--credentials`: the lines themselves (a credential line always holds a space, between the host and the
 * header), or else the file that holds them, read here; `network-input.ts` checks them as the action's.
 * Errors say what went wrong with the file, never what it holds.
 */
function credentialsText(value) {
    if (!value.trim() || /\s/.test(value.trim()))
        return value;
    const usage = (why) => new CliExit(`Invalid option '--credentials': ${JSON.stringify(value)}: ${why}`, EXIT.usage);
    let fd;
    try {
        fd = external_node_fs_.openSync(value, external_node_fs_.constants.O_RDONLY);
    }
    catch (error) {
        throw usage(`not a credential line (\`<host> <Header-Name>: <value>\`) and no file to read (${error.code ?? 'unreadable'})`);
    }
    try {
        const st = external_node_fs_.fstatSync(fd);
        if (!st.isFile())
            throw usage('not a file');
        if (st.size > MAX_CREDENTIALS_FILE_BYTES)
            throw usage(`a file of more than ${MAX_CREDENTIALS_FILE_BYTES} bytes`);
        const buffer = Buffer.alloc(MAX_CREDENTIALS_FILE_BYTES + 1);
        const read = external_node_fs_.readSync(fd, buffer, 0, buffer.length, 0);
        if (read > MAX_CREDENTIALS_FILE_BYTES)
            throw usage(`a file of more than ${MAX_CREDENTIALS_FILE_BYTES} bytes`);
        return buffer.subarray(0, read).toString('utf8');
    }
    finally {
        external_node_fs_.closeSync(fd);
    }
}
function settingsFrom(mode, opts) {
    const options = typeof opts.credentials === 'string' ? { ...opts, credentials: credentialsText(opts.credentials) } : opts;
    const read = optionReader(options);
    try {
        return parseSettings((name) => (name === 'mode' ? mode : read(name)));
    }
    catch (error) {
        if (error instanceof InputError)
            throw new CliExit(error.message.replace(/^Invalid input '([^']+)'/, "Invalid option '--$1'"), EXIT.usage);
        throw error;
    }
}
async function runCli(command, opts, args = []) {
    const json = Boolean(opts.json);
    switch (command) {
        case 'run':
            return commands_runCommand(settingsFrom('run', opts), json);
        case 'reap':
            return reapCommand(settingsFrom('reap', opts), json);
        case 'list':
            return listCommand(settingsFrom('reap', opts), json);
        case 'rm':
            return rmCommand(settingsFrom('reap', opts), {
                name: args[0],
                project: opts.project,
                isolation: opts.isolation,
                json,
            });
    }
}
async function commands_runCommand(settings, json) {
    const ui = terminalUi();
    let state;
    const save = (update) => {
        state = { ...(state ?? {}), ...update };
    };
    // Whether the run holds the sandbox's lock right now (in this process).
    let lockHeld = false;
    // Ctrl-C: stop the container and apply the cleanup policy, as the action's post step would; under the
    // run's own lock while it holds it.
    const onSignal = () => {
        ui.warning('interrupted: cleaning up');
        void removeLeftProbe(state, ui)
            .then(() => (state?.location ? cleanupRun(state, ui, external_node_os_.tmpdir(), { lockHeld }) : undefined))
            .catch(() => undefined)
            .then(() => process.exit(130));
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
        const outcome = await runSandbox(settings, {
            ui,
            save,
            onSandboxLock: (held) => (lockHeld = held),
        });
        const cleanup = await cleanupRun(state, ui, external_node_os_.tmpdir());
        if (json)
            process.stdout.write(`${JSON.stringify({ ...outcome, cleanup }, null, 2)}\n`);
        else
            process.stderr.write(`\n${outcomeText(outcome)}\n`);
        const code = outcome.command.exitCode;
        if (code !== 0 && !settings.allowFailure)
            throw new CliExit(`the command exited with code ${code}`, EXIT.commandFailed);
    }
    finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
    }
}

;// CONCATENATED MODULE: ./src/cli/program.ts
// The `worktree-sandbox` program. Its options are action.yml's inputs (`--worktree-root` is `worktree-root`),
// validated by the same settings: each input is an option of the subcommands whose settings read it, with
// action.yml's default, the settings' choices and the first sentence of its description (or WORDS, worded
// for a terminal), unless NOT_OPTIONS says why not. A new input needs no line here.







/** The inputs a mode's settings read, all at their defaults: the settings parser says which mode uses what. */
function settingsRead(mode) {
    const names = new Set();
    parseSettings((name) => (names.add(name), name === 'mode' ? mode : name === 'command' ? 'true' : ''), {});
    return names;
}
/** Where the options come from: action.yml's inputs, the settings' choices, which inputs each mode reads. */
const ACTION = {
    inputs: ACTION_INPUTS,
    choices: CHOICES,
    reads: settingsRead,
};
/** The inputs that are no option (space-separated names: why). */
const NOT_OPTIONS = Object.fromEntries(Object.entries({
    mode: 'the subcommand is the mode',
    token: "a secret on a command line is every local user's to read (ps); a push uses git's own credentials",
    'trigger label-trigger assignee-trigger issue-branch-prefix allowed-associations allowed-bots pr-number pull-request-bot': "the pull-request bot's: a GitHub event starts it, and a terminal has none",
    'pull-request pull-request-title pull-request-body pull-request-draft pull-request-labels': 'opening a pull request takes the GitHub API and `token`',
    'author committer max-import-size': "not offered on the command line so far (the action's default applies): off this list, it is an option",
}).flatMap(([names, why]) => names.split(' ').map((name) => [name, why])));
/** What a terminal is told of an input, where action.yml's first sentence would say too much or too little. */
const WORDS = {
    command: '<command> command to run with sh -c in the worktree (required)',
    image: '<image> image with sh and git',
    isolation: '<isolation> where the worktree lives',
    branch: '<branch> branch to check out or create (default: a transient sandbox)',
    base: '<rev> start point of a new branch or transient sandbox (default: HEAD)',
    'repository-path': ['<dir> parent repository (default: the current folder)', process.cwd()],
    cleanup: '<policy> after the run',
    env: ['<line> NAME or NAME=value for the container (repeatable)', []],
    'timeout-minutes': '<n> stop the command after this long (0: no limit)',
    'lock-timeout-minutes': '<n> wait this long for another run on the same sandbox',
    'allow-failure': 'exit 0 even when the command fails',
    push: 'commit what is left and push the branch to origin (never forced)',
    'commit-message': ['<message> message of that commit', false],
    'secret-scan': '<mode> before the push: scan the added lines, the commits as stored and the path names for known secrets and credential formats; block stops the push (docs/secret-scan.md)',
    memory: '<size> memory limit, e.g. 2g',
    cpus: '<n> CPU limit, e.g. 1.5',
    'pids-limit': '<n> process limit',
    network: '<mode> bridge, none, audit, or an allow-list: hosts, *.domains, :ports, @presets, separated by commas (docs/network.md)',
    // Read as a file unless it holds a space (commands.ts): the values need not be on the command line.
    credentials: '<file or lines> headers the proxy sets, one `<host> <Header-Name>: <value>` a line (needs an allow-list or audit): a file that holds them (keeps the values off the command line), or the lines themselves',
    'max-model-requests': '<n> with an allow-list or audit: model API requests the proxy lets through, then 429 (0: no limit)',
    'max-model-tokens': '<n> with an allow-list or audit: input plus output tokens, then 429 (0: no limit; docs/agents.md)',
    'read-only-rootfs': 'read-only root filesystem (tmpfs /tmp)',
    'dry-run': 'decide and report, remove nothing',
    'max-removals': '<n> remove at most this many, the oldest first (0: no limit)',
    force: 'remove stale sandboxes that hold work too (never those in use)',
    'archive-dir': "<dir> save the work (with --force) and orphans' files here before removal",
    'headless-expiry-days': '<n> days unused before an exploration-* sandbox is stale',
    'branch-expiry-days': '<n> days unused before a branch sandbox is stale',
    'orphan-expiry-days': '<n> days unused before an orphan (parent repository gone) is stale; at least --branch-expiry-days',
    engine: '<engine> container engine',
    'worktree-root': '<dir> root of disk sandboxes (default: $XDG_CACHE_HOME/worktree-sandbox/worktrees)',
    'volume-prefix': '<prefix> prefix of sandbox volume names',
};
/** Up to the full stop that ends the first sentence (the next starts with a capital or code; `e.g.` ends none). */
const FIRST_SENTENCE = /^.*?(?<!\b(?:e\.g|i\.e))(?=[.!?](?:\s+[A-Z`$]|$))/s;
/** An input WORDS does not word: the first sentence of its description; a value unless it defaults to false. */
function inputSpec(name, { description, default: fallback }) {
    const words = WORDS[name];
    if (words !== undefined)
        return typeof words === 'string' ? [name, words] : [name, ...words];
    const help = FIRST_SENTENCE.exec(description.trim())?.[0] ?? description;
    if (fallback === 'false')
        return [name, help];
    return [name, `${/^\d+$/.test(fallback ?? '') ? '<n>' : '<value>'} ${help}`];
}
function program_option([name, words, fallback], source) {
    const [, value, help] = /^(?:(<[^>]+>) )?(.*)$/s.exec(words);
    const option = new Option(value ? `--${name} ${value}` : `--${name}`, help);
    if (source.choices[name])
        option.choices(source.choices[name]);
    if (Array.isArray(fallback))
        option.argParser((v, acc) => [...acc, v]);
    const shown = fallback ?? (option.required ? source.inputs[name]?.default : undefined);
    if (shown)
        option.default(shown);
    return option;
}
/**
 * The inputs as each subcommand's options, in action.yml's order: each mode's own (`run`, `reap`);
 * `retention`, which `list` shares with `reap` (its REMOVAL column is the reaper's decision); `common`,
 * where sandboxes are, for every subcommand. `image` is run's alone: the others' helpers ignore it.
 */
function inputOptions({ inputs, reads }) {
    const [run, reap] = [reads('run'), reads('reap')];
    const retention = Object.keys(DEFAULT_RETENTION).map((key) => key.replace(/[A-Z]/g, '-$&').toLowerCase());
    const common = (name) => run.has(name) && reap.has(name) && name !== 'image';
    const reapOnly = (name) => reap.has(name) && !run.has(name);
    const specs = (keep) => Object.keys(inputs)
        .filter((name) => keep(name) && !(name in NOT_OPTIONS))
        .map((name) => inputSpec(name, inputs[name]));
    return {
        run: specs((name) => run.has(name) && !common(name)),
        reap: specs((name) => reapOnly(name) && !retention.includes(name)),
        retention: specs((name) => reapOnly(name) && retention.includes(name)),
        common: specs(common),
    };
}
const json = (what) => ['json', `print the ${what} as JSON on stdout`];
/** `--image` of list, rm and reap: their helpers run the runner's own programs, never an image's. */
const IGNORED_IMAGE = [
    'image',
    "<image> ignored: the helpers run the runner's own programs (kept so that scripts that pass it still run)",
];
const RM = [
    ['project', '<project> the project of the sandbox, when NAME is in several'],
    ['isolation', '<isolation> disk or volume (container), when NAME is both', false],
    ['dry-run', 'say what would be removed (and saved first), remove nothing'],
    ['force', 'remove it even if it holds work (the work saved first); never when it is in use'],
    [
        'archive-dir',
        "<dir> where the work (or an orphan's files) is saved first (default: <tmp>/worktree-sandbox-archive-<uid>)",
    ],
    IGNORED_IMAGE,
    json('result'),
];
const REAP_HELP = `
For a cron job on a self-hosted runner, as the runner's user:
  17 3 * * *  npx --prefix /opt/worktree-sandbox worktree-sandbox reap --archive-dir /var/lib/wts-archive`;
const LIST_HELP = `
States: clean; holds work (uncommitted changes, commits no remote-tracking ref or tag of the parent
reaches (its local branches count only when it has no remote), a merge or rebase in progress, or the
check could not run); in use (a running container, a
process working in it, a run holding its lock); orphan (its parent repository is
gone). Give the expiry options of your reap job: the REMOVAL column assumes them.`;
function buildProgram(source = ACTION) {
    const inputs = inputOptions(source);
    const program = new Command('worktree-sandbox')
        .description('A git worktree sandbox per job, the command run in a container; stale sandboxes reaped without losing work.')
        .version(package_namespaceObject.rE, '-V, --version', 'print the version')
        .option('--debug', 'print stack traces of errors')
        .exitOverride()
        .configureOutput({ outputError: (text, write) => write(text) })
        .addHelpText('after', `\n${exitCodesHelp()}`);
    const command = (name, description, specs, after) => {
        const cmd = program.command(name).description(description);
        for (const spec of [...specs, ...inputs.common])
            cmd.addOption(program_option(spec, source));
        return after ? cmd.addHelpText('after', after) : cmd;
    };
    command('run', "run a command in a sandbox worktree (the action's run mode), then clean up by --cleanup", [...inputs.run, json('outcome')], '').action((opts) => runCli('run', opts));
    command('reap', 'remove stale sandboxes (disk and volume) by the retention matrix, keeping any that hold work or are in use', [...inputs.reap, IGNORED_IMAGE, json('result'), ...inputs.retention], REAP_HELP).action((opts) => runCli('reap', opts));
    command('list', 'every sandbox on this machine (disk and volume): class, branch, age, size, state, and when reap would remove it', [IGNORED_IMAGE, json('list'), ...inputs.retention], LIST_HELP).action((opts) => runCli('list', opts));
    command('rm', "remove one sandbox, with the reaper's safety gates (whatever its age)", RM, '\nExit code 4 when a safety gate keeps the sandbox (the reason is printed).')
        .argument('<name>', 'sandbox name (as in `list`), volume name, or path of a disk sandbox')
        .action((name, opts) => runCli('rm', opts, [name]));
    return program;
}
async function main(argv) {
    const program = buildProgram();
    const debug = argv.includes('--debug');
    try {
        await program.parseAsync(argv, { from: 'user' });
        return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
    }
    catch (error) {
        if (error instanceof CommanderError) {
            return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
        }
        const err = error;
        process.stderr.write(`worktree-sandbox: ${err.message}\n`);
        if (debug && err.stack)
            process.stderr.write(`${err.stack}\n`);
        return err.exitCode ?? EXIT.error;
    }
}

;// CONCATENATED MODULE: ./src/cli/main.ts
// The `worktree-sandbox` command: the action's core from a terminal or a cron job (program.ts).


void main(process.argv.slice(2)).then((code) => process.exit(code));

