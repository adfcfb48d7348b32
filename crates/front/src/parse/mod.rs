//! The hand-written recursive-descent parser: preprocessed tokens to an
//! [`ast::SourceFile`].
//!
//! The parser is split by grammar area: `items` (top-level declarations),
//! `decl` (modifiers, declarators, annotations, initializers), `types`,
//! `stmt`, `expr` (a Pratt loop), `attr` and `number`. This file holds the
//! token cursor, diagnostics, the nesting limit and error recovery.
//!
//! ## Error recovery
//!
//! Every syntax error is one `E20001` ("expected X, found Y") at the
//! offending token. After an error the parser is *recovering*: further
//! syntax errors are not reported until the enclosing list (block, switch
//! case, struct body, file) resynchronises at a `;` or `}` it owns, or at a
//! keyword that starts a statement or an item. Nodes that could not be read
//! become `Error` variants, so the checker stays quiet about them.
//!
//! Delimiters are matched once up front, so a list that goes wrong inside
//! `( )`, `[ ]` or `{ }` resumes after its close, and resynchronisation steps
//! over whole groups. A few likely slips are read as what was meant: a
//! function head inside a body ends the body (HLSL has no local functions),
//! statements after a function head are its body even without the `{`, a
//! `switch` body starting with `case` is read without its `{`, and a keyword
//! only an item can start with ends a struct body. An unexpected end of file
//! or a stray brace after an earlier error is not reported again: it is
//! nearly always the same mistake seen from the other end.
//!
//! ## Nesting limit
//!
//! Statements, expression levels, unary operators, casts, initializer lists
//! and types each count one level of nesting. Past [`MAX_DEPTH`] levels the
//! parser reports `E20002` once, makes the rest of the input look like the
//! end of the file so that every open construct unwinds at once, and then
//! skips to the end of the enclosing item. Nothing recurses without counting,
//! so no input can overflow the stack. Expression trees are also kept below
//! [`MAX_EXPR_HEIGHT`], which left-nested chains (`a + b + c ...`) reach
//! without nesting the parser, so the passes that walk the tree recursively
//! (and `Drop`) see a bounded height.
//!
//! ## Types versus expressions
//!
//! HLSL needs to know type names to read `(T)x` and `T<...>`. The parser
//! knows the builtin type names and every struct, typedef, typealias and
//! enum name declared earlier in the file. Contextual modifier words (`line`,
//! `point`, `sample`, `vertices` ...) are modifiers only when a type and a
//! name follow them; elsewhere they are ordinary identifiers. `(name)` before
//! a name or a literal is a cast whatever `name` is, since nothing else can
//! be meant.
//!
//! ## What the tree looks like
//!
//! - A name that is missing (an unnamed prototype parameter, or after an
//!   error) is an [`ast::Ident`] with an empty name and an empty span; a
//!   type that could not be read is a [`ast::TypeExpr`] with an empty name.
//! - `unorm`, `snorm`, `row_major` and `column_major` before a declaration
//!   go to the type's modifiers; `const` and the other qualifiers go to the
//!   declaration's. Inside generic arguments, casts and typedefs, where
//!   there is no declaration, `const` belongs to the type too.
//! - Structs declared inside a struct or buffer come out as items (or
//!   statements) of their own just before it.
//! - A parenthesised expression's span includes its parentheses.

mod attr;
mod decl;
mod expr;
mod extern_type;
mod func;
mod glsl;
mod items;
mod number;
mod stmt;
mod types;

use legalis_ir::FastHashSet;
use legalis_ir::{Span, diag::Diagnostic};

use crate::{
    ast, codes,
    lexer::{Token, TokenKind},
};

/// How deeply statements, expressions, initializer lists and types may nest.
pub const MAX_DEPTH: u32 = 128;

/// How high an expression tree may be, counting the operators of
/// left-nested chains, which cost no nesting: room for the long sums that
/// generated code writes, and a bound for the passes that walk the tree.
pub const MAX_EXPR_HEIGHT: u32 = 1024;

/// Parses a token stream that ends with one `Eof` into a syntax tree,
/// appending syntax diagnostics to `diagnostics`. Never panics.
pub fn parse(tokens: &[Token], text: &str, diagnostics: &mut Vec<Diagnostic>) -> ast::SourceFile {
    let owned: Vec<Token>;
    let tokens = if tokens.last().is_some_and(|t| t.kind == TokenKind::Eof) {
        tokens
    } else {
        // Defensive: the preprocessor always appends `Eof`, but the cursor
        // relies on it, so supply one at the end of the text if it is missing.
        let end = u32::try_from(text.len()).unwrap_or(u32::MAX);
        let end = tokens.last().map_or(end, |t| t.span.end.max(end));
        let eof = Token {
            kind: TokenKind::Eof,
            span: Span::new(end, end),
            text: Span::new(end, end),
        };
        owned = tokens.iter().copied().chain(std::iter::once(eof)).collect();
        &owned
    };
    let mut parser = Parser::new(tokens, text);
    let file = parser.source_file();
    diagnostics.append(&mut parser.diagnostics);
    file
}

/// Lexes `text` without preprocessing and parses it. For text with no
/// directives and no macros (tests, tools) this is what the preprocessor
/// would hand [`parse`]; lexer problems are left to the preprocessor and not
/// reported here.
pub fn parse_raw(text: &str, diagnostics: &mut Vec<Diagnostic>) -> ast::SourceFile {
    let mut tokens = crate::lexer::lex_raw(text, 0);
    let end = u32::try_from(text.len()).unwrap_or(u32::MAX);
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(end, end),
        text: Span::new(end, end),
    });
    parse(&tokens, text, diagnostics)
}

/// Where resynchronisation after an error may stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SyncLevel {
    /// Inside a block, switch, struct or buffer body.
    Stmt,
    /// Between top-level items.
    Item,
}

struct Parser<'a> {
    tokens: &'a [Token],
    text: &'a str,
    /// Index of the current token; never past the final `Eof`.
    pos: usize,
    /// The last token consumed, for node spans and resynchronisation.
    prev: Token,
    /// The current token is a `>>` whose first `>` closed a generic list.
    split_shr: bool,
    /// `>` closes a generic argument list rather than comparing.
    gt_closes: bool,
    depth: u32,
    /// Height of the expression tree read last (a leaf is 1).
    height: u32,
    /// The nesting limit was hit: the cursor reports end of file until the
    /// item loop skips the rest of the item.
    bailing: bool,
    /// An error was reported and the enclosing list has not resynchronised.
    recovering: bool,
    /// `E20001` errors reported so far.
    syntax_errors: usize,
    /// The last token was skipped as junk, not read as the end of anything.
    junk_skipped: bool,
    /// For each opening delimiter, the index of its closer (see
    /// [`match_delimiters`]).
    matching: Vec<u32>,
    /// Struct, typedef, typealias and enum names declared so far.
    type_names: FastHashSet<&'a str>,
    /// Inside the item after `__generic<...>`: its `where` clauses, whose
    /// parameters are the prefix's.
    prefix_where: Option<Vec<(ast::Ident, ast::TypeExpr)>>,
    /// The `typealias`/`typedef` members of the struct body being read.
    struct_aliases: Vec<ast::TypeAlias>,
    diagnostics: Vec<Diagnostic>,
}

impl<'a> Parser<'a> {
    fn new(tokens: &'a [Token], text: &'a str) -> Self {
        let first = tokens[0];
        Parser {
            tokens,
            text,
            pos: 0,
            prev: Token {
                kind: TokenKind::Semi,
                span: Span::new(first.span.start, first.span.start),
                text: Span::new(first.text.start, first.text.start),
            },
            split_shr: false,
            gt_closes: false,
            depth: 0,
            height: 0,
            bailing: false,
            recovering: false,
            syntax_errors: 0,
            junk_skipped: false,
            matching: match_delimiters(tokens),
            type_names: FastHashSet::default(),
            prefix_where: None,
            struct_aliases: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    // ---- cursor

    fn eof_token(&self) -> Token {
        self.tokens[self.tokens.len() - 1]
    }

    /// The current token (the second half of a split `>>` reads as `>`).
    fn peek(&self) -> Token {
        if self.bailing {
            return self.eof_token();
        }
        let tok = self.tokens[self.pos];
        if self.split_shr {
            let start = tok.span.start.saturating_add(1).min(tok.span.end);
            let text_start = tok.text.start.saturating_add(1).min(tok.text.end);
            return Token {
                kind: TokenKind::Gt,
                span: Span::new(start, tok.span.end),
                text: Span::new(text_start, tok.text.end),
            };
        }
        tok
    }

    fn kind(&self) -> TokenKind {
        self.peek().kind
    }

    /// The token `n` places ahead (`nth(0)` is [`Parser::peek`]).
    fn nth(&self, n: usize) -> Token {
        if n == 0 {
            return self.peek();
        }
        if self.bailing {
            return self.eof_token();
        }
        self.tokens[(self.pos + n).min(self.tokens.len() - 1)]
    }

    fn nth_kind(&self, n: usize) -> TokenKind {
        self.nth(n).kind
    }

    /// The text of the identifier `n` places ahead, if it is one.
    fn nth_word(&self, n: usize) -> Option<&'a str> {
        let tok = self.nth(n);
        (tok.kind == TokenKind::Ident).then(|| self.token_text(tok))
    }

    fn token_text(&self, tok: Token) -> &'a str {
        self.text.get(tok.text.range()).unwrap_or("")
    }

    fn at(&self, kind: TokenKind) -> bool {
        self.kind() == kind
    }

    fn at_word(&self, word: &str) -> bool {
        self.nth_word(0) == Some(word)
    }

    fn bump(&mut self) -> Token {
        let tok = self.peek();
        if tok.kind != TokenKind::Eof {
            self.split_shr = false;
            self.pos += 1;
        }
        self.prev = tok;
        self.junk_skipped = false;
        tok
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        let found = self.at(kind);
        if found {
            self.bump();
        }
        found
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = self.at_word(word);
        if found {
            self.bump();
        }
        found
    }

    /// Consumes a token of `kind` or reports "expected `what`".
    fn expect(&mut self, kind: TokenKind, what: &str) -> bool {
        let found = self.eat(kind);
        if !found {
            self.error_expected(what);
        }
        found
    }

    /// Consumes the `close` of the group opened at token `open`, or reports
    /// "expected `what`" and moves past that group's close if it has one.
    fn expect_close(&mut self, close: TokenKind, what: &str, open: usize) -> bool {
        if self.eat(close) {
            return true;
        }
        self.error_expected(what);
        self.close_group(open);
        false
    }

    fn ident_of(&self, tok: Token) -> ast::Ident {
        ast::Ident {
            name: self.token_text(tok).to_string(),
            span: tok.span,
        }
    }

    /// Consumes an identifier or reports "expected `what`".
    fn ident(&mut self, what: &str) -> Option<ast::Ident> {
        if self.at(TokenKind::Ident) {
            let tok = self.bump();
            Some(self.ident_of(tok))
        } else {
            self.error_expected(what);
            None
        }
    }

    /// A placeholder name for a declarator whose name is missing: empty, at
    /// the current token.
    fn missing_ident(&self) -> ast::Ident {
        let at = self.peek().span.start;
        ast::Ident {
            name: String::new(),
            span: Span::new(at, at),
        }
    }

    /// The span from `start` to the end of the last consumed token; empty at
    /// `start` when nothing has been consumed since.
    fn span_from(&self, start: Span) -> Span {
        if self.prev.span.end < start.start {
            Span::new(start.start, start.start)
        } else {
            start.join(self.prev.span)
        }
    }

    // ---- diagnostics

    fn describe(&self, tok: Token) -> String {
        match tok.kind {
            TokenKind::Ident | TokenKind::IntLit | TokenKind::FloatLit => {
                format!("`{}`", self.token_text(tok))
            }
            kind => kind.describe().to_string(),
        }
    }

    /// Reports "expected `what`, found ..." at the current token, unless the
    /// parser is already recovering from an error.
    fn error_expected(&mut self, what: &str) {
        let tok = self.peek();
        // The preprocessor has already reported characters no token starts
        // with and unterminated comments and strings.
        let lexed_badly = matches!(
            tok.kind,
            TokenKind::Unknown | TokenKind::UnterminatedComment | TokenKind::UnterminatedString
        );
        let late_eof = tok.kind == TokenKind::Eof && self.syntax_errors > 0;
        if !self.recovering && !self.bailing && !lexed_badly && !late_eof {
            let found = self.describe(tok);
            self.diagnostics.push(Diagnostic::error(
                codes::PARSE_EXPECTED,
                format!("expected {what}, found {found}"),
                tok.span,
            ));
            self.syntax_errors += 1;
        }
        self.recovering = true;
    }

    /// Reports recognised but unsupported syntax (`E20003`).
    fn unsupported(&mut self, what: &str, span: Span) {
        self.error(
            codes::PARSE_UNSUPPORTED,
            format!("{what} is not supported"),
            span,
        );
    }

    fn error(&mut self, code: u32, message: String, span: Span) {
        self.diagnostics
            .push(Diagnostic::error(code, message, span));
    }

    // ---- nesting

    /// Enters one level of nesting; `false` (after reporting `E20002` and
    /// starting to bail out) when that would pass [`MAX_DEPTH`].
    fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.too_deep(format!("nesting is deeper than {MAX_DEPTH} levels"));
            return false;
        }
        self.depth += 1;
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Records the height of the expression just read. Left-nested chains
    /// (`a + b + c`, `a[0][1]`) are built by loops and cost no nesting, but
    /// the tree they make is walked recursively by later passes (and by
    /// `Drop`), so its height is bounded too.
    fn set_height(&mut self, height: u32) {
        self.height = height;
        if height > MAX_EXPR_HEIGHT {
            self.too_deep(format!(
                "expression is deeper than {MAX_EXPR_HEIGHT} nested operations"
            ));
        }
    }

    /// Reports `E20002` and starts bailing out: the cursor reads end of file
    /// until the item loop skips the rest of the item.
    fn too_deep(&mut self, message: String) {
        // Past a syntax error the depth is more likely the error's doing
        // than the program's: bail out quietly then.
        if !self.bailing && !self.recovering {
            let span = self.peek().span;
            self.error(codes::PARSE_DEPTH_LIMIT, message, span);
        }
        self.bailing = true;
        self.recovering = true;
    }

    // ---- recovery

    /// Ends recovery: skips what is left of a broken statement (or item)
    /// unless the last token consumed already ended one.
    fn resync(&mut self, level: SyncLevel) {
        // While bailing out, everything unwinds to the item loop unread.
        if !self.recovering || self.bailing {
            return;
        }
        self.recovering = false;
        let junk = std::mem::take(&mut self.junk_skipped);
        let synced = match self.prev.kind {
            TokenKind::Semi | TokenKind::RBrace => true,
            TokenKind::LBrace => level == SyncLevel::Stmt,
            _ => false,
        };
        if synced && !junk {
            return;
        }
        loop {
            let tok = self.peek();
            match tok.kind {
                TokenKind::Eof => return,
                TokenKind::Semi => {
                    self.bump();
                    return;
                }
                TokenKind::RBrace => {
                    // A stray `}` between items closes nothing: drop it here
                    // rather than report it as a second error.
                    if level == SyncLevel::Item {
                        self.bump();
                    }
                    return;
                }
                TokenKind::LBrace if self.skip_group() => return,
                TokenKind::LParen | TokenKind::LBracket if self.skip_group() => continue,
                TokenKind::Ident if self.starts_construct(tok, level) => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// Whether `tok` is a keyword that begins a statement (or, between
    /// items, an item), so resynchronisation can stop before it.
    fn starts_construct(&self, tok: Token, level: SyncLevel) -> bool {
        let word = self.token_text(tok);
        match level {
            SyncLevel::Stmt => matches!(
                word,
                "if" | "for"
                    | "while"
                    | "do"
                    | "switch"
                    | "return"
                    | "break"
                    | "continue"
                    | "discard"
                    | "case"
                    | "default"
                    | "struct"
                    | "typedef"
            ),
            SyncLevel::Item => {
                matches!(
                    word,
                    "struct"
                        | "cbuffer"
                        | "tbuffer"
                        | "typedef"
                        | "typealias"
                        | "enum"
                        | "static"
                        | "groupshared"
                        | "uniform"
                        | "const"
                ) || items::unsupported_item_keyword(word).is_some()
            }
        }
    }

    /// Steps over a token nothing could read (after reporting it), so that a
    /// loop always moves; resynchronisation then does not take it for the
    /// end of a statement.
    fn skip_junk(&mut self) {
        self.bump();
        self.junk_skipped = true;
    }

    /// For an opening delimiter `n` tokens ahead, the offset of its close.
    fn matching_offset(&self, n: usize) -> Option<usize> {
        if self.bailing {
            return None;
        }
        let close = *self.matching.get(self.pos + n)?;
        (close != NO_MATCH).then(|| close as usize - self.pos)
    }

    /// At an opening delimiter with a matching close: moves past the close.
    fn skip_group(&mut self) -> bool {
        let close = self.matching[self.pos];
        if close == NO_MATCH || self.bailing || self.split_shr {
            return false;
        }
        self.pos = close as usize;
        self.bump();
        true
    }

    /// Inside a group opened by the token at `open`, after an error: moves
    /// past the group's close if it has one ahead. Lists use this to come
    /// back in step with the text after a malformed element.
    fn close_group(&mut self, open: usize) -> bool {
        let close = self.matching.get(open).copied().unwrap_or(NO_MATCH);
        if close == NO_MATCH || (close as usize) < self.pos || self.bailing {
            return false;
        }
        self.split_shr = false;
        self.pos = close as usize;
        self.bump();
        true
    }

    /// Skips a construct the parser does not read: up to and including the
    /// first `;`, or the first brace group, whichever comes first.
    fn skip_construct(&mut self) {
        loop {
            match self.kind() {
                TokenKind::Eof | TokenKind::RBrace => return,
                TokenKind::Semi => {
                    self.bump();
                    return;
                }
                TokenKind::LBrace if self.skip_group() => return,
                TokenKind::LParen | TokenKind::LBracket if self.skip_group() => continue,
                _ => {}
            }
            self.bump();
        }
    }

    /// After bailing out of an item that started at token `start`, moves past
    /// its end: the first `;` or brace group of the item.
    fn skip_bailed_item(&mut self, start: usize) {
        self.bailing = false;
        self.split_shr = false;
        let here = self.pos;
        self.pos = start;
        self.skip_construct();
        if self.pos < here {
            // The item's own delimiters did not balance before where parsing
            // stopped; never move backwards.
            self.pos = here;
            self.skip_construct();
        }
        self.recovering = false;
        self.depth = 0;
    }
}

/// `matching[i]` for a token that opens `(`, `[` or `{`: the index of the
/// token that closes it, or [`NO_MATCH`]. A closer that does not fit the
/// innermost opener closes the nearest of the four innermost openers it
/// fits, leaving those inside unmatched; one that fits none is left alone.
fn match_delimiters(tokens: &[Token]) -> Vec<u32> {
    let mut matching = vec![NO_MATCH; tokens.len()];
    let mut open: Vec<(usize, TokenKind)> = Vec::new();
    for (index, tok) in tokens.iter().enumerate() {
        let opener = match tok.kind {
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => {
                open.push((index, tok.kind));
                continue;
            }
            TokenKind::RParen => TokenKind::LParen,
            TokenKind::RBracket => TokenKind::LBracket,
            TokenKind::RBrace => TokenKind::LBrace,
            _ => continue,
        };
        // Looking only a few openers down keeps this linear on any input.
        let nearest = open
            .iter()
            .rev()
            .take(4)
            .position(|&(_, kind)| kind == opener);
        if let Some(up) = nearest {
            let depth = open.len() - 1 - up;
            let (start, _) = open[depth];
            matching[start] = u32::try_from(index).unwrap_or(NO_MATCH);
            open.truncate(depth);
        }
    }
    matching
}

const NO_MATCH: u32 = u32::MAX;
