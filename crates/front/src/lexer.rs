//! The token vocabulary and the raw `logos` lexer.
//!
//! Keywords are not tokens: HLSL has many contextual words (`line`, `point`,
//! `sample`, `vertices` are also ordinary identifiers), so the parser reads
//! identifiers and decides by their text. Whitespace and comments are skipped
//! here; the preprocessor recovers line structure from the gaps between
//! tokens.

use legalis_ir::Span;
use logos::Logos;

/// What a token is. Punctuation and operators are one kind each; every
/// word, keyword or not, is [`TokenKind::Ident`].
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\n\f\v]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
#[logos(skip r"\\\r?\n")]
pub enum TokenKind {
    /// An identifier or keyword: the parser tells keywords by their text.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    /// Decimal, hex or octal integer with optional `u`/`l` suffixes.
    #[regex(r"[0-9]+[uUlL]*")]
    #[regex(r"0[xX][0-9a-fA-F]+[uUlL]*")]
    IntLit,
    /// Float with optional exponent and `f`/`h`/`l`/`lf` suffix.
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?([fFhHlL]|[lL][fF])?")]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?([fFhHlL]|[lL][fF])?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+([fFhHlL]|[lL][fF])?")]
    FloatLit,
    /// A string literal: double quotes on one line, backslash escapes
    /// allowed.
    #[regex(r#""([^"\\\n]|\\.)*""#)]
    StringLit,
    /// `/*` without its `*/`: reported as an unterminated comment.
    #[regex(r"/\*([^*]|\*+[^*/])*\**")]
    UnterminatedComment,
    /// `"` without its closing quote on the same line.
    #[regex(r#""([^"\\\n]|\\.)*"#)]
    UnterminatedString,

    /// `(`.
    #[token("(")]
    LParen,
    /// `)`.
    #[token(")")]
    RParen,
    /// `[`.
    #[token("[")]
    LBracket,
    /// `]`.
    #[token("]")]
    RBracket,
    /// `{`.
    #[token("{")]
    LBrace,
    /// `}`.
    #[token("}")]
    RBrace,
    /// `;`.
    #[token(";")]
    Semi,
    /// `,`.
    #[token(",")]
    Comma,
    /// `.`.
    #[token(".")]
    Dot,
    /// `:`.
    #[token(":")]
    Colon,
    /// `::`.
    #[token("::")]
    ColonColon,
    /// `?`.
    #[token("?")]
    Question,
    /// `#`.
    #[token("#")]
    Hash,
    /// `##`.
    #[token("##")]
    HashHash,

    /// `+`.
    #[token("+")]
    Plus,
    /// `-`.
    #[token("-")]
    Minus,
    /// `*`.
    #[token("*")]
    Star,
    /// `/`.
    #[token("/")]
    Slash,
    /// `%`.
    #[token("%")]
    Percent,
    /// `++`.
    #[token("++")]
    PlusPlus,
    /// `--`.
    #[token("--")]
    MinusMinus,
    /// `<<`.
    #[token("<<")]
    Shl,
    /// `>>`.
    #[token(">>")]
    Shr,
    /// `<`.
    #[token("<")]
    Lt,
    /// `>`.
    #[token(">")]
    Gt,
    /// `<=`.
    #[token("<=")]
    Le,
    /// `>=`.
    #[token(">=")]
    Ge,
    /// `==`.
    #[token("==")]
    EqEq,
    /// `!=`.
    #[token("!=")]
    Ne,
    /// `&`.
    #[token("&")]
    Amp,
    /// `|`.
    #[token("|")]
    Pipe,
    /// `^`.
    #[token("^")]
    Caret,
    /// `~`.
    #[token("~")]
    Tilde,
    /// `!`.
    #[token("!")]
    Bang,
    /// `&&`.
    #[token("&&")]
    AmpAmp,
    /// `||`.
    #[token("||")]
    PipePipe,

    /// `=`.
    #[token("=")]
    Eq,
    /// `+=`.
    #[token("+=")]
    PlusEq,
    /// `-=`.
    #[token("-=")]
    MinusEq,
    /// `*=`.
    #[token("*=")]
    StarEq,
    /// `/=`.
    #[token("/=")]
    SlashEq,
    /// `%=`.
    #[token("%=")]
    PercentEq,
    /// `<<=`.
    #[token("<<=")]
    ShlEq,
    /// `>>=`.
    #[token(">>=")]
    ShrEq,
    /// `&=`.
    #[token("&=")]
    AmpEq,
    /// `|=`.
    #[token("|=")]
    PipeEq,
    /// `^=`.
    #[token("^=")]
    CaretEq,

    /// A character no token starts with (reported by the preprocessor when
    /// it is in an active region).
    Unknown,
    /// End of input; the preprocessor appends exactly one.
    Eof,
}

/// A token after preprocessing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Where diagnostics about this token point: for a token that came out of
    /// a macro expansion, the macro's use site.
    pub span: Span,
    /// Where the token's text is, in the preprocessor's text buffer (the
    /// source, followed by the text of command-line defines).
    pub text: Span,
}

impl TokenKind {
    /// How diagnostics name the token kind.
    pub fn describe(self) -> &'static str {
        use TokenKind::*;
        match self {
            Ident => "identifier",
            IntLit => "integer literal",
            FloatLit => "float literal",
            StringLit => "string literal",
            UnterminatedComment => "unterminated comment",
            UnterminatedString => "unterminated string",
            LParen => "`(`",
            RParen => "`)`",
            LBracket => "`[`",
            RBracket => "`]`",
            LBrace => "`{`",
            RBrace => "`}`",
            Semi => "`;`",
            Comma => "`,`",
            Dot => "`.`",
            Colon => "`:`",
            ColonColon => "`::`",
            Question => "`?`",
            Hash => "`#`",
            HashHash => "`##`",
            Plus => "`+`",
            Minus => "`-`",
            Star => "`*`",
            Slash => "`/`",
            Percent => "`%`",
            PlusPlus => "`++`",
            MinusMinus => "`--`",
            Shl => "`<<`",
            Shr => "`>>`",
            Lt => "`<`",
            Gt => "`>`",
            Le => "`<=`",
            Ge => "`>=`",
            EqEq => "`==`",
            Ne => "`!=`",
            Amp => "`&`",
            Pipe => "`|`",
            Caret => "`^`",
            Tilde => "`~`",
            Bang => "`!`",
            AmpAmp => "`&&`",
            PipePipe => "`||`",
            Eq => "`=`",
            PlusEq => "`+=`",
            MinusEq => "`-=`",
            StarEq => "`*=`",
            SlashEq => "`/=`",
            PercentEq => "`%=`",
            ShlEq => "`<<=`",
            ShrEq => "`>>=`",
            AmpEq => "`&=`",
            PipeEq => "`|=`",
            CaretEq => "`^=`",
            Unknown => "unknown character",
            Eof => "end of file",
        }
    }
}

/// Lexes `text` into raw tokens (no preprocessing). Characters no token
/// starts with become [`TokenKind::Unknown`]. `base` is added to every span
/// (for text appended after the source).
pub fn lex_raw(text: &str, base: u32) -> Vec<Token> {
    let mut lexer = TokenKind::lexer(text);
    let mut out = Vec::with_capacity(text.len() / 4);
    while let Some(result) = lexer.next() {
        let range = lexer.span();
        let span = Span::new(base + range.start as u32, base + range.end as u32);
        let kind = result.unwrap_or(TokenKind::Unknown);
        out.push(Token {
            kind,
            span,
            text: span,
        });
    }
    out
}
