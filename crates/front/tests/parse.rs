//! Parser tests: every supported construct, checked through a compact
//! rendering of the syntax tree (one line per item or statement,
//! S-expressions for expressions). Error paths live in `parse_errors.rs`,
//! nesting and size limits in `parse_limits.rs`.

use std::fmt::Write as _;

use legalis_front::{ast::*, parse::parse_raw};
use legalis_ir::{Span, diag::Diagnostic};

// ---- harness

fn parse_text(src: &str) -> (SourceFile, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let file = parse_raw(src, &mut diagnostics);
    (file, diagnostics)
}

fn render_diagnostics(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let span = d.primary_span();
        writeln!(
            out,
            "{} {}..{} {}",
            d.code_str(),
            span.start,
            span.end,
            d.message
        )
        .unwrap();
    }
    out
}

/// Parses `src`, requires no diagnostics, and compares the rendering with
/// `expected` (leading and trailing blank lines and common indentation are
/// ignored).
#[track_caller]
fn check(src: &str, expected: &str) {
    let (file, diagnostics) = parse_text(src);
    assert!(
        diagnostics.is_empty(),
        "unexpected diagnostics:\n{}",
        render_diagnostics(&diagnostics)
    );
    compare(&render_file(&file), expected);
}

/// Parses `src` and compares the diagnostics and the rendering.
#[track_caller]
fn check_with_diagnostics(src: &str, expected: &str) {
    let (file, diagnostics) = parse_text(src);
    let actual = format!("{}{}", render_diagnostics(&diagnostics), render_file(&file));
    compare(&actual, expected);
}

/// Parses `void f() { BODY }`, requiring no diagnostics, and returns the body.
#[track_caller]
fn parse_body(body: &str) -> Block {
    let src = format!("void f() {{\n{body}\n}}");
    let (mut file, diagnostics) = parse_text(&src);
    assert!(
        diagnostics.is_empty(),
        "unexpected diagnostics:\n{}",
        render_diagnostics(&diagnostics)
    );
    match file.items.pop() {
        Some(Item::Function(FunctionDecl {
            body: Some(block), ..
        })) if file.items.is_empty() => block,
        other => panic!("not one function: {other:?}"),
    }
}

/// Parses `void f() { BODY }` and compares the rendering of the body.
#[track_caller]
fn check_stmts(body: &str, expected: &str) {
    let mut out = String::new();
    for stmt in &parse_body(body).stmts {
        render_stmt(&mut out, stmt, 0);
    }
    compare(&out, expected);
}

/// Parses each line of `exprs` as an expression statement and compares
/// one rendered expression per line.
#[track_caller]
fn check_exprs(exprs: &str, expected: &str) {
    let body: String = exprs
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("{};\n", l.trim()))
        .collect();
    let mut out = String::new();
    for stmt in &parse_body(&body).stmts {
        let StmtKind::Expr(expr) = &stmt.kind else {
            panic!("not an expression statement: {stmt:?}");
        };
        writeln!(out, "{}", render_expr(expr)).unwrap();
    }
    compare(&out, expected);
}

fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let lines = &lines[first..last.max(first)];
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

#[track_caller]
fn compare(actual: &str, expected: &str) {
    let actual = normalise(actual);
    let expected = normalise(expected);
    if actual != expected {
        panic!("rendering differs\n--- expected\n{expected}\n--- actual\n{actual}\n");
    }
}

// ---- rendering

fn render_file(file: &SourceFile) -> String {
    let mut out = String::new();
    for item in &file.items {
        render_item(&mut out, item);
    }
    out
}

fn line(out: &mut String, indent: usize, text: &str) {
    writeln!(out, "{:indent$}{text}", "", indent = indent * 2).unwrap();
}

fn render_item(out: &mut String, item: &Item) {
    match item {
        Item::Struct(s) => render_struct(out, s, 0),
        Item::Extension(s) => {
            line(out, 0, "extension");
            render_struct(out, s, 1);
        }
        Item::Function(f) => {
            let params: Vec<String> = f.params.iter().map(render_param).collect();
            let head = format!(
                "fn {}{}{} {}{}({}){}",
                render_attrs(&f.attributes),
                render_mods(&f.modifiers),
                render_type(&f.return_type),
                f.name.name,
                render_generics(&f.generics),
                params.join(", "),
                render_annotations(&f.return_annotations),
            );
            match &f.body {
                Some(body) => {
                    line(out, 0, &head);
                    for stmt in &body.stmts {
                        render_stmt(out, stmt, 1);
                    }
                }
                None => line(out, 0, &format!("{head};")),
            }
        }
        Item::Var(v) => line(out, 0, &format!("var {}", render_var(v))),
        Item::Buffer(b) => {
            let keyword = if b.is_tbuffer { "tbuffer" } else { "cbuffer" };
            let head = format!(
                "{keyword} {}{}{}",
                render_attrs(&b.attributes),
                b.name.name,
                render_annotations(&b.annotations)
            );
            line(out, 0, &head);
            for field in &b.fields {
                line(out, 1, &format!("field {}", render_var(field)));
            }
        }
        Item::Enum(e) => line(out, 0, &render_enum(e)),
        Item::TypeAlias(t) => line(out, 0, &render_alias(t)),
        Item::Interface(i) => {
            let bases: Vec<&str> = i.bases.iter().map(|b| b.name.as_str()).collect();
            line(
                out,
                0,
                &format!("interface {} : [{}]", i.name.name, bases.join(", ")),
            );
            for m in &i.methods {
                let params: Vec<String> = m.params.iter().map(render_param).collect();
                let head = format!(
                    "method {} {}({});",
                    render_type(&m.return_type),
                    m.name.name,
                    params.join(", ")
                );
                line(out, 1, &head);
            }
        }
        Item::Namespace(n) => {
            line(out, 0, &format!("namespace {}", n.name.name));
            for item in &n.items {
                render_item(out, item);
            }
            line(out, 0, &format!("end namespace {}", n.name.name));
        }
        Item::GlslBuffer(b) => {
            let layout: Vec<&str> = b.layout.iter().map(|q| q.name.name.as_str()).collect();
            let instance = b.instance.as_ref().map_or("", |i| i.name.as_str());
            let head = format!("buffer [{}] {} {instance}", layout.join(", "), b.name.name);
            line(out, 0, &head);
            for field in &b.fields {
                line(out, 1, &format!("field {}", render_var(field)));
            }
        }
        Item::GlslLayoutIn(l) => {
            let layout: Vec<&str> = l.layout.iter().map(|q| q.name.name.as_str()).collect();
            line(out, 0, &format!("layout [{}] in", layout.join(", ")));
        }
    }
}

/// `<T : IFoo, let N : int>`; nothing for no generic parameters.
fn render_generics(generics: &[GenericParam]) -> String {
    if generics.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = generics
        .iter()
        .map(|g| match &g.kind {
            GenericParamKind::Type { constraints } if constraints.is_empty() => g.name.name.clone(),
            GenericParamKind::Type { constraints } => {
                let names: Vec<String> = constraints.iter().map(render_type).collect();
                format!("{} : {}", g.name.name, names.join(" & "))
            }
            GenericParamKind::Value { ty } => format!("let {} : {}", g.name.name, render_type(ty)),
        })
        .collect();
    format!("<{}>", parts.join(", "))
}

fn render_struct(out: &mut String, s: &StructDecl, indent: usize) {
    let name = format!("{}{}", s.name.name, render_generics(&s.generics));
    if s.conformances.is_empty() {
        line(out, indent, &format!("struct {name}"));
    } else {
        let names: Vec<&str> = s.conformances.iter().map(|c| c.name.as_str()).collect();
        line(
            out,
            indent,
            &format!("struct {name} : [{}]", names.join(", ")),
        );
    }
    for field in &s.fields {
        line(out, indent + 1, &format!("field {}", render_var(field)));
    }
    for method in &s.methods {
        let body = if method.body.is_some() { "{...}" } else { ";" };
        let head = format!(
            "method {}{} {}({} params) {body}",
            render_mods(&method.modifiers),
            render_type(&method.return_type),
            method.name.name,
            method.params.len()
        );
        line(out, indent + 1, &head);
    }
}

fn render_enum(e: &EnumDecl) -> String {
    let members: Vec<String> = e
        .members
        .iter()
        .map(|(name, value)| match value {
            Some(v) => format!("{} = {}", name.name, render_expr(v)),
            None => name.name.clone(),
        })
        .collect();
    format!(
        "enum {}{}{} {{ {} }}",
        if e.scoped { "class " } else { "" },
        e.name.name,
        e.base
            .as_ref()
            .map(|b| format!(" : {}", render_type(b)))
            .unwrap_or_default(),
        members.join(", ")
    )
}

fn render_alias(t: &TypeAlias) -> String {
    format!(
        "typedef {} = {}{}",
        t.name.name,
        render_type(&t.ty),
        render_dims(&t.array_dims)
    )
}

fn render_attrs(attrs: &[Attribute]) -> String {
    attrs
        .iter()
        .map(|a| {
            if a.args.is_empty() {
                format!("[{}] ", a.name)
            } else {
                let args: Vec<String> = a.args.iter().map(render_expr).collect();
                format!("[{}({})] ", a.name, args.join(", "))
            }
        })
        .collect()
}

fn render_mods(mods: &[Modifier]) -> String {
    mods.iter()
        .map(|m| format!("{:?} ", m.kind).to_lowercase())
        .collect()
}

fn render_type(ty: &TypeExpr) -> String {
    let mut s = render_mods(&ty.modifiers);
    s.push_str(if ty.name.is_empty() {
        "<no type>"
    } else {
        &ty.name
    });
    if !ty.args.is_empty() {
        let args: Vec<String> = ty
            .args
            .iter()
            .map(|a| match a {
                GenericArg::Type(t) => render_type(t),
                GenericArg::Value(v) => format!("#{}", render_expr(v)),
            })
            .collect();
        write!(s, "<{}>", args.join(", ")).unwrap();
    }
    s
}

fn render_dims(dims: &[Option<Expr>]) -> String {
    dims.iter()
        .map(|d| match d {
            Some(e) => format!("[{}]", render_expr(e)),
            None => "[]".to_string(),
        })
        .collect()
}

fn render_annotations(annotations: &[PostAnnotation]) -> String {
    annotations
        .iter()
        .map(|a| match a {
            PostAnnotation::Semantic(s) => format!(" : {}", s.name),
            PostAnnotation::Register {
                class,
                index,
                space,
                ..
            } => match space {
                Some(space) => format!(" : register({class}{index}, space{space})"),
                None => format!(" : register({class}{index})"),
            },
            PostAnnotation::PackOffset { text, .. } => format!(" : packoffset({text})"),
            PostAnnotation::PayloadAccess { write, stages, .. } => {
                let stages: Vec<&str> = stages.iter().map(|s| s.name.as_str()).collect();
                let access = if *write { "write" } else { "read" };
                format!(" : {access}({})", stages.join(", "))
            }
        })
        .collect()
}

fn render_declarator(d: &Declarator) -> String {
    let mut s = format!(
        "{}{}{}",
        if d.name.name.is_empty() {
            "<unnamed>"
        } else {
            &d.name.name
        },
        render_dims(&d.array_dims),
        render_annotations(&d.annotations)
    );
    if let Some(init) = &d.init {
        write!(s, " = {}", render_expr(init)).unwrap();
    }
    s
}

fn render_var(v: &VarDecl) -> String {
    let declarators: Vec<String> = v.declarators.iter().map(render_declarator).collect();
    format!(
        "{}{}{} {}",
        render_attrs(&v.attributes),
        render_mods(&v.modifiers),
        render_type(&v.ty),
        declarators.join(", ")
    )
}

fn render_param(p: &Param) -> String {
    format!(
        "{}{}{} {}",
        render_attrs(&p.attributes),
        render_mods(&p.modifiers),
        render_type(&p.ty),
        render_declarator(&p.declarator)
    )
}

fn render_stmt(out: &mut String, stmt: &Stmt, indent: usize) {
    let attrs = render_attrs(&stmt.attributes);
    match &stmt.kind {
        StmtKind::Var(v) => line(out, indent, &format!("{attrs}var {}", render_var(v))),
        StmtKind::Struct(s) => render_struct(out, s, indent),
        StmtKind::TypeAlias(t) => line(out, indent, &render_alias(t)),
        StmtKind::Expr(e) => line(out, indent, &format!("{attrs}expr {}", render_expr(e))),
        StmtKind::Block(b) => {
            line(out, indent, &format!("{attrs}block"));
            for s in &b.stmts {
                render_stmt(out, s, indent + 1);
            }
        }
        StmtKind::If { cond, then, els } => {
            line(out, indent, &format!("{attrs}if {}", render_expr(cond)));
            render_stmt(out, then, indent + 1);
            if let Some(els) = els {
                line(out, indent, "else");
                render_stmt(out, els, indent + 1);
            }
        }
        StmtKind::IfLet {
            name,
            value,
            then,
            els,
        } => {
            let value = render_expr(value);
            let name = &name.name;
            line(out, indent, &format!("{attrs}if let {name} = {value}"));
            render_stmt(out, then, indent + 1);
            if let Some(els) = els {
                line(out, indent, "else");
                render_stmt(out, els, indent + 1);
            }
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            let init = init.as_ref().map(|s| inline_stmt(s)).unwrap_or_default();
            let cond = cond.as_deref().map(render_expr).unwrap_or_default();
            let update = update.as_deref().map(render_expr).unwrap_or_default();
            line(
                out,
                indent,
                &format!("{attrs}for ({init}; {cond}; {update})"),
            );
            render_stmt(out, body, indent + 1);
        }
        StmtKind::While { cond, body } => {
            line(out, indent, &format!("{attrs}while {}", render_expr(cond)));
            render_stmt(out, body, indent + 1);
        }
        StmtKind::DoWhile { body, cond } => {
            line(out, indent, &format!("{attrs}do"));
            render_stmt(out, body, indent + 1);
            line(out, indent, &format!("while {}", render_expr(cond)));
        }
        StmtKind::Switch { selector, cases } => {
            line(
                out,
                indent,
                &format!("{attrs}switch {}", render_expr(selector)),
            );
            for case in cases {
                let labels: Vec<String> = case
                    .labels
                    .iter()
                    .map(|l| match l {
                        Some(e) => format!("case {}", render_expr(e)),
                        None => "default".to_string(),
                    })
                    .collect();
                line(out, indent + 1, &format!("{}:", labels.join(", ")));
                for s in &case.body {
                    render_stmt(out, s, indent + 2);
                }
            }
        }
        StmtKind::Break => line(out, indent, &format!("{attrs}break")),
        StmtKind::Continue => line(out, indent, &format!("{attrs}continue")),
        StmtKind::Return(None) => line(out, indent, &format!("{attrs}return")),
        StmtKind::Return(Some(e)) => {
            line(out, indent, &format!("{attrs}return {}", render_expr(e)))
        }
        StmtKind::Discard => line(out, indent, &format!("{attrs}discard")),
        StmtKind::Empty => line(out, indent, &format!("{attrs}empty")),
        StmtKind::Error => line(out, indent, &format!("{attrs}<error>")),
    }
}

fn inline_stmt(stmt: &Stmt) -> String {
    let mut out = String::new();
    render_stmt(&mut out, stmt, 0);
    out.trim_end().replace('\n', " / ")
}

fn unary_name(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Neg => "neg",
        UnaryOp::Plus => "plus",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::PreInc => "pre++",
        UnaryOp::PreDec => "pre--",
        UnaryOp::PostInc => "post++",
        UnaryOp::PostDec => "post--",
        UnaryOp::Deref => "deref",
    }
}

fn binary_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitXor => "^",
        BinaryOp::BitOr => "|",
        BinaryOp::And => "&&",
        BinaryOp::Or => "||",
        BinaryOp::Comma => ",",
    }
}

fn render_list(items: &[Expr]) -> String {
    items
        .iter()
        .map(|e| format!(" {}", render_expr(e)))
        .collect()
}

fn render_expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int { value, suffix } => {
            let suffix = match suffix {
                IntSuffix::None => "",
                IntSuffix::U => "u",
                IntSuffix::L => "l",
                IntSuffix::UL => "ul",
                IntSuffix::LL => "ll",
                IntSuffix::ULL => "ull",
            };
            format!("{value}{suffix}")
        }
        ExprKind::Float { value, suffix } => {
            let suffix = match suffix {
                FloatSuffix::None => "",
                FloatSuffix::F => "f",
                FloatSuffix::H => "h",
                FloatSuffix::L => "l",
            };
            format!("{value:?}{suffix}")
        }
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::String(s) => format!("{s:?}"),
        ExprKind::Name(path) => path
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join("::"),
        ExprKind::Unary { op, expr } => format!("({} {})", unary_name(*op), render_expr(expr)),
        ExprKind::Binary { op, left, right } => {
            format!(
                "({} {} {})",
                binary_name(*op),
                render_expr(left),
                render_expr(right)
            )
        }
        ExprKind::Assign { op, target, value } => {
            let op = op.map(binary_name).unwrap_or_default();
            format!("({op}= {} {})", render_expr(target), render_expr(value))
        }
        ExprKind::Ternary { cond, then, els } => format!(
            "(? {} {} {})",
            render_expr(cond),
            render_expr(then),
            render_expr(els)
        ),
        ExprKind::Cast {
            ty,
            array_dims,
            expr,
        } => format!(
            "(cast {}{} {})",
            render_type(ty),
            render_dims(array_dims),
            render_expr(expr)
        ),
        ExprKind::Call { callee, args } => {
            format!("(call {}{})", render_expr(callee), render_list(args))
        }
        ExprKind::TypeRef(ty) => format!("<{}>", render_type(ty)),
        ExprKind::TypeTest { value, ty, cast } => format!(
            "({} {} {})",
            if *cast { "as" } else { "is" },
            render_expr(value),
            render_type(ty)
        ),
        ExprKind::MethodCall {
            object,
            method,
            type_args,
            args,
        } => {
            let generic = if type_args.is_empty() {
                String::new()
            } else {
                let args: Vec<String> = type_args
                    .iter()
                    .map(|a| match a {
                        GenericArg::Type(t) => render_type(t),
                        GenericArg::Value(v) => format!("#{}", render_expr(v)),
                    })
                    .collect();
                format!("<{}>", args.join(", "))
            };
            format!(
                "(.{}{generic}() {}{})",
                method.name,
                render_expr(object),
                render_list(args)
            )
        }
        ExprKind::Member { base, member } => format!("(. {} {})", render_expr(base), member.name),
        ExprKind::Index { base, index } => {
            format!("([] {} {})", render_expr(base), render_expr(index))
        }
        ExprKind::InitList(items) => {
            let items: Vec<String> = items.iter().map(render_expr).collect();
            format!("{{{}}}", items.join(", "))
        }
        ExprKind::Error => "<error>".to_string(),
    }
}

// ---- items

#[test]
fn struct_fields_with_semantics_modifiers_and_attributes() {
    check(
        r"
struct VsOut {
    float4 pos : SV_Position;
    nointerpolation uint id : BLENDINDICES0;
    noperspective float2 a : TEXCOORD0;
    linear centroid float2 b : TEXCOORD1;
    sample float c : TEXCOORD2;
    row_major float4x4 m : TEXCOORD3;
    column_major float3x3 n;
    float weights[4] : TEXCOORD7, extra[2][3];
    [[vk::location(5)]] float4 color : COLOR0;
};
struct NoSemicolon { float x; }
struct Empty {}
",
        r"
            struct VsOut
              field float4 pos : SV_Position
              field nointerpolation uint id : BLENDINDICES0
              field noperspective float2 a : TEXCOORD0
              field linear centroid float2 b : TEXCOORD1
              field sample float c : TEXCOORD2
              field rowmajor float4x4 m : TEXCOORD3
              field columnmajor float3x3 n
              field float weights[4] : TEXCOORD7, extra[2][3]
              field [vk::location(5)] float4 color : COLOR0
            struct NoSemicolon
              field float x
            struct Empty
        ",
    );
}

#[test]
fn a_struct_without_its_semicolon_before_a_function_returning_it() {
    check(
        "struct S { float a; }\nS make() { S s; return s; }\nstruct T { int b; } t;",
        r"
            struct S
              field float a
            fn S make()
              var S s
              return s
            struct T
              field int b
            var T t
        ",
    );
}

#[test]
fn nested_structs_are_hoisted_before_their_parent() {
    check(
        r"
struct Outer {
    struct Inner { struct Deepest { int d; } deep; float a; } inner;
    struct Unused { int u; };
    float b;
}
struct S { float x; } s, t[2];
",
        r"
            struct Deepest
              field int d
            struct Inner
              field Deepest deep
              field float a
            struct Unused
              field int u
            struct Outer
              field Inner inner
              field float b
            struct S
              field float x
            var S s, t[2]
        ",
    );
}

#[test]
fn struct_declared_in_a_function_body() {
    check_stmts(
        r"
struct Local { struct In { int i; } in_; float x; };
struct P { float y; } p = { 1 };
Local l;
",
        r"
            struct In
              field int i
            struct Local
              field In in_
              field float x
            struct P
              field float y
            var P p = {1}
            var Local l
        ",
    );
}

#[test]
fn function_attributes_are_generic() {
    check(
        r#"
[shader("vertex")] [numthreads(8, 8, 1)] void a() {}
[domain("tri")] [partitioning("fractional_odd")] [outputtopology("triangle_cw")]
[outputcontrolpoints(3)] [patchconstantfunc("PatchFn")] [maxtessfactor(64.0)]
void b() {}
[maxvertexcount(3)] [instance(2)] void c() {}
[earlydepthstencil] [vk::location(2)] [[vk::binding(0, 1)]] [[vk::a, vk::b(2)]] void d() {}
[[vk_binding(3, 0)]] [vk_location(1)] [vk_] void e() {}
"#,
        r#"
            fn [shader("vertex")] [numthreads(8, 8, 1)] void a()
            fn [domain("tri")] [partitioning("fractional_odd")] [outputtopology("triangle_cw")] [outputcontrolpoints(3)] [patchconstantfunc("PatchFn")] [maxtessfactor(64.0)] void b()
            fn [maxvertexcount(3)] [instance(2)] void c()
            fn [earlydepthstencil] [vk::location(2)] [vk::binding(0, 1)] [vk::a] [vk::b(2)] void d()
            fn [vk::binding(3, 0)] [vk::location(1)] [vk_] void e()
        "#,
    );
}

#[test]
fn parameter_modifiers_semantics_and_defaults() {
    check(
        r"
float4 main(in float4 pos : SV_Position, out float4 color : SV_Target0,
            inout uint n, uniform float4x4 mvp, const float k = 2.0,
            nointerpolation float a : TEXCOORD0, linear sample float b : TEXCOORD1,
            [[vk::location(3)]] float4 c : COLOR, float arr[3] : TEXCOORD2) : SV_Target
{ return pos; }
",
        r"
            fn float4 main(in float4 pos : SV_Position, out float4 color : SV_Target0, inout uint n, uniform float4x4 mvp, const float k = 2.0, nointerpolation float a : TEXCOORD0, linear sample float b : TEXCOORD1, [vk::location(3)] float4 c : COLOR, float arr[3] : TEXCOORD2) : SV_Target
              return pos
        ",
    );
}

#[test]
fn geometry_and_mesh_parameter_modifiers() {
    check(
        r"
void g1(point VsOut p[1], inout PointStream<GsOut> s) {}
void g2(line VsOut p[2], lineadj VsOut q[4]) {}
void g3(triangle VsOut p[3], triangleadj VsOut q[6], inout TriangleStream<GsOut> s) {}
void m(out vertices V verts[64], out indices uint3 tris[126],
       out primitives P prims[126], in payload Payload pl) {}
void h(InputPatch<VsOut, 3> ip, OutputPatch<HsOut, 4> op) {}
void v(OutputVertices<V, 64> ov, OutputIndices<uint3, 126> oi, OutputPrimitives<P, 126> op) {}
",
        r"
            fn void g1(point VsOut p[1], inout PointStream<GsOut> s)
            fn void g2(line VsOut p[2], lineadj VsOut q[4])
            fn void g3(triangle VsOut p[3], triangleadj VsOut q[6], inout TriangleStream<GsOut> s)
            fn void m(out vertices V verts[64], out indices uint3 tris[126], out primitives P prims[126], in payload Payload pl)
            fn void h(InputPatch<VsOut, #3> ip, OutputPatch<HsOut, #4> op)
            fn void v(OutputVertices<V, #64> ov, OutputIndices<uint3, #126> oi, OutputPrimitives<P, #126> op)
        ",
    );
}

#[test]
fn contextual_modifier_words_are_identifiers_elsewhere() {
    check(
        r"
float line(float point) { float sample = point; sample += 1; return sample; }
float f(float vertices, line l) { line x; triangle = vertices; return indices.payload; }
",
        r"
            fn float line(float point)
              var float sample = point
              expr (+= sample 1)
              return sample
            fn float f(float vertices, line l)
              var line x
              expr (= triangle vertices)
              return (. indices payload)
        ",
    );
}

#[test]
fn prototypes_unnamed_parameters_and_void_lists() {
    check(
        r"
float f(float);
float g(float, int i);
void h(void);
float4 main(void) : SV_Target;
",
        r"
            fn float f(float <unnamed>);
            fn float g(float <unnamed>, int i);
            fn void h();
            fn float4 main() : SV_Target;
        ",
    );
}

#[test]
fn global_variables() {
    check(
        r"
static const float k = 1;
groupshared float s[64];
static float3 arr[2] = { {1, 2, 3}, {4, 5, 6}, };
float a, b[2], c = 3;
Texture2D<float4> tex : register(t0, space1);
Texture2D plain : register(T3);
[[vk::binding(0, 1)]] SamplerState samp : register(s0);
RWTexture2D<unorm float4> img : register(u1);
RWTexture2D<snorm float2> img2;
ConstantBuffer<Params> cb : register(b1);
StructuredBuffer<S> sb;
uniform float4 tint;
extern float e;
precise float p;
",
        r"
            var static const float k = 1
            var groupshared float s[64]
            var static float3 arr[2] = {{1, 2, 3}, {4, 5, 6}}
            var float a, b[2], c = 3
            var Texture2D<float4> tex : register(t0, space1)
            var Texture2D plain : register(t3)
            var [vk::binding(0, 1)] SamplerState samp : register(s0)
            var RWTexture2D<unorm float4> img : register(u1)
            var RWTexture2D<snorm float2> img2
            var ConstantBuffer<Params> cb : register(b1)
            var StructuredBuffer<S> sb
            var uniform float4 tint
            var extern float e
            var precise float p
        ",
    );
}

#[test]
fn constant_and_texture_buffers() {
    check(
        r"
cbuffer Params : register(b0) {
    float4x4 mvp;
    float4 tint : packoffset(c4);
    float alpha : packoffset(c5.y);
    row_major float3x4 m;
};
tbuffer TB : register(t2, space3) { float4 t; }
[[vk::binding(3)]] cbuffer NoReg { struct Light { float3 dir; } light; }
",
        r"
            cbuffer Params : register(b0)
              field float4x4 mvp
              field float4 tint : packoffset(c4)
              field float alpha : packoffset(c5.y)
              field rowmajor float3x4 m
            tbuffer TB : register(t2, space3)
              field float4 t
            struct Light
              field float3 dir
            cbuffer [vk::binding(3)] NoReg
              field Light light
        ",
    );
}

#[test]
fn typedefs_typealiases_and_enums() {
    check(
        r"
typedef float4 Color;
typedef float Arr[4];
typedef const row_major float4x4 Mat;
typealias Color2 = vector<float, 4>;
enum E { A, B = 3, C };
enum class Scoped : uint { X = 1 << 2, Y, };
enum Empty {}
Color c;
Arr a;
Scoped s = Scoped::Y;
",
        r"
            typedef Color = float4
            typedef Arr = float[4]
            typedef Mat = const rowmajor float4x4
            typedef Color2 = vector<float, #4>
            enum E { A, B = 3, C }
            enum class Scoped : uint { X = (<< 1 2), Y }
            enum Empty {  }
            var Color c
            var Arr a
            var Scoped s = Scoped::Y
        ",
    );
}

#[test]
fn type_expressions() {
    check(
        r"
float4 a; half3 b; uint2 c; int64_t d; float16_t e; min16float2 f; float4x4 g;
vector<float, 3> h; matrix<float, 2, 2> i; vector<float, N + 1> j;
Texture2D k; Texture2D<float4> l; StructuredBuffer<S> m; RayDesc n;
BuiltInTriangleIntersectionAttributes o; MyStruct p;
StructuredBuffer<vector<float, 4>> q;
Texture2D<vector<float, 4> > r;
RWStructuredBuffer<matrix<float, 4, 4>> s2;
vector<float, (4 > 3) ? 3 : 2> t;
vector<float, 1 << 2> u;
StructuredBuffer<const float> v;
",
        r"
            var float4 a
            var half3 b
            var uint2 c
            var int64_t d
            var float16_t e
            var min16float2 f
            var float4x4 g
            var vector<float, #3> h
            var matrix<float, #2, #2> i
            var vector<float, #(+ N 1)> j
            var Texture2D k
            var Texture2D<float4> l
            var StructuredBuffer<S> m
            var RayDesc n
            var BuiltInTriangleIntersectionAttributes o
            var MyStruct p
            var StructuredBuffer<vector<float, #4>> q
            var Texture2D<vector<float, #4>> r
            var RWStructuredBuffer<matrix<float, #4, #4>> s2
            var vector<float, #(? (> 4 3) 3 2)> t
            var vector<float, #(<< 1 2)> u
            var StructuredBuffer<const float> v
        ",
    );
}

// ---- statements

#[test]
fn declarations_in_statements() {
    check_stmts(
        r"
const float k = 1;
static int counter;
float a = 1, b[2] = {1, 2}, c;
float4 v = float4(1, 2, 3, 4);
float3x3 m = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
vector<float, 3> w = vector<float, 3>(1, 2, 3);
struct S { float x; };
S s = (S)0;
typedef float2 F2;
F2 z;
",
        r"
            var const float k = 1
            var static int counter
            var float a = 1, b[2] = {1, 2}, c
            var float4 v = (call float4 1 2 3 4)
            var float3x3 m = {1, 0, 0, 0, 1, 0, 0, 0, 1}
            var vector<float, #3> w = (call <vector<float, #3>> 1 2 3)
            struct S
              field float x
            var S s = (cast S 0)
            typedef F2 = float2
            var F2 z
        ",
    );
}

#[test]
fn control_flow() {
    check_stmts(
        r"
if (a) b = 1; else if (c) { b = 2; } else b = 3;
for (int i = 0, j = 1; i < 4; i++, j--) { continue; }
for (i = 0; ; ) break;
for (;;) ;
while (x > 0) x--;
do { x++; } while (x < 10);
switch (s) {
    case 0:
    case 1: a = 1; break;
    case E::B: { a = 2; }
    default: a = 3;
}
switch (t) {}
return;
discard;
{ ; }
return a, b;
",
        r"
            if a
              expr (= b 1)
            else
              if c
                block
                  expr (= b 2)
              else
                expr (= b 3)
            for (var int i = 0, j = 1; (< i 4); (, (post++ i) (post-- j)))
              block
                continue
            for (expr (= i 0); ; )
              break
            for (; ; )
              empty
            while (> x 0)
              expr (post-- x)
            do
              block
                expr (post++ x)
            while (< x 10)
            switch s
              case 0, case 1:
                expr (= a 1)
                break
              case E::B:
                block
                  expr (= a 2)
              default:
                expr (= a 3)
            switch t
            return
            discard
            block
              empty
            return (, a b)
        ",
    );
}

#[test]
fn statement_attributes() {
    check_stmts(
        r"
[unroll] for (;;) {}
[unroll(4)] for (;;) {}
[loop] while (a) {}
[branch] if (a) {}
[flatten] if (a) {} else {}
[fastopt] [allow_uav_condition] while (b) {}
[forcecase] switch (a) { default: break; }
[call] switch (a) { default: break; }
",
        r"
            [unroll] for (; ; )
              block
            [unroll(4)] for (; ; )
              block
            [loop] while a
              block
            [branch] if a
              block
            [flatten] if a
              block
            else
              block
            [fastopt] [allow_uav_condition] while b
              block
            [forcecase] switch a
              default:
                break
            [call] switch a
              default:
                break
        ",
    );
}

// ---- expressions

#[test]
fn precedence_and_associativity() {
    check_exprs(
        r"
a + b * c - d / e % f
a << 1 + 2 >> 3
a < b == c > d
a & b ^ c | d && e || f
a = b = c
a += b -= c
x *= 2; x /= 2; x %= 2; x <<= 1; x >>= 1; x &= 1; x |= 1; x ^= 1
c ? a : b ? d : e
a = c ? 1 : 2
a || b ? c, d : e
-a * !b + ~c - +d
++a + --b
a++ + b--
- -a
(a, b), c
",
        r"
            (- (+ a (* b c)) (% (/ d e) f))
            (>> (<< a (+ 1 2)) 3)
            (== (< a b) (> c d))
            (|| (&& (| (^ (& a b) c) d) e) f)
            (= a (= b c))
            (+= a (-= b c))
            (*= x 2)
            (/= x 2)
            (%= x 2)
            (<<= x 1)
            (>>= x 1)
            (&= x 1)
            (|= x 1)
            (^= x 1)
            (? c a (? b d e))
            (= a (? c 1 2))
            (? (|| a b) (, c d) e)
            (- (+ (* (neg a) (! b)) (~ c)) (plus d))
            (+ (pre++ a) (pre-- b))
            (+ (post++ a) (post-- b))
            (neg (neg a))
            (, (, a b) c)
        ",
    );
}

#[test]
fn is_and_as_bind_like_relational_operators() {
    check_exprs(
        r"
r = v is Vertex && b
(s as Square).value
r = a + b is float
r = x is Pair<float>
",
        r"
            (= r (&& (is v Vertex) b))
            (. (as s Square) value)
            (= r (is (+ a b) float))
            (= r (is x Pair<float>))
        ",
    );
}

#[test]
fn postfix_member_index_and_calls() {
    check_exprs(
        r"
v.xyz
s.a.b[2].c
m[1][2]
f()
f(a, b + 1)
tex.Sample(samp, uv).rgb
buf.Load(i)[0]
E::A
Outer::Inner::C
i++
arr[i++]--
",
        r"
            (. v xyz)
            (. ([] (. (. s a) b) 2) c)
            ([] ([] m 1) 2)
            (call f)
            (call f a (+ b 1))
            (. (.Sample() tex samp uv) rgb)
            ([] (.Load() buf i) 0)
            E::A
            Outer::Inner::C
            (post++ i)
            (post-- ([] arr (post++ i)))
        ",
    );
}

#[test]
fn literals() {
    check_exprs(
        r#"
42
0x2A
052
7u
7l
7ul
7ll
7ull
18446744073709551615
1.5
1.
.5f
1e3
2.5e-1h
1.0l
true
false
"str\"ing"
"#,
        r#"
            42
            42
            42
            7u
            7l
            7ul
            7ll
            7ull
            18446744073709551615
            1.5
            1.0
            0.5f
            1000.0
            0.25h
            1.0l
            true
            false
            "str\"ing"
        "#,
    );
}

#[test]
fn casts_constructors_and_parentheses() {
    check(
        r"
struct MyStruct { float a; };
typedef int Int2[2];
void f() {
    (float)x;
    (float4)v;
    (MyStruct)0;
    (int[2])a;
    (vector<float, 3>)v;
    (const float)x;
    (float) - x;
    (float)(x);
    (float)x.y;
    (float)x++;
    (x) - y;
    (x)(y);
    (Later)z;
    (Later)1;
    (float4(1, 2, 3, 4)).x;
    float4(v, 1);
    vector<float, 3>(1, 2, 3);
    Texture2D<float>(t);
    (uint)-1;
    (void)x;
}
",
        r"
            struct MyStruct
              field float a
            typedef Int2 = int[2]
            fn void f()
              expr (cast float x)
              expr (cast float4 v)
              expr (cast MyStruct 0)
              expr (cast int[2] a)
              expr (cast vector<float, #3> v)
              expr (cast const float x)
              expr (cast float (neg x))
              expr (cast float x)
              expr (cast float (. x y))
              expr (cast float (post++ x))
              expr (- x y)
              expr (call x y)
              expr (cast Later z)
              expr (cast Later 1)
              expr (. (call float4 1 2 3 4) x)
              expr (call float4 v 1)
              expr (call <vector<float, #3>> 1 2 3)
              expr (call <Texture2D<float>> t)
              expr (cast uint (neg 1))
              expr (cast void x)
        ",
    );
}

#[test]
fn generic_value_arguments_stop_at_the_closing_angle() {
    check_exprs(
        r"
vector<float, 2>(1, 2) > 0
vector<int, 1 + 1>(a, b)
matrix<float, 2, 2>(1, 0, 0, 1)
a < b
a > b
a >> b
",
        r"
            (> (call <vector<float, #2>> 1 2) 0)
            (call <vector<int, #(+ 1 1)>> a b)
            (call <matrix<float, #2, #2>> 1 0 0 1)
            (< a b)
            (> a b)
            (>> a b)
        ",
    );
}

#[test]
fn payload_access_qualifiers() {
    check(
        r"
struct Payload {
    float3 color : read(caller) : write(closesthit, miss);
    uint depth : read() : write(caller, anyhit);
};
",
        r"
            struct Payload
              field float3 color : read(caller) : write(closesthit, miss)
              field uint depth : read() : write(caller, anyhit)
        ",
    );
}

#[test]
fn payload_access_qualifier_with_an_unknown_stage() {
    check_with_diagnostics(
        r"
struct Payload {
    float a : read(caller, raygen);
};
",
        r"
            E20006 45..51 invalid stage name `raygen` in a ray-payload access qualifier; the stages are `anyhit`, `closesthit`, `miss` and `caller`
            struct Payload
              field float a : read(caller, raygen)
        ",
    );
}

#[test]
fn method_calls_with_generic_arguments() {
    check_exprs(
        r"
hit.GetAttributes<Attributes>()
h.f<float, Texture2D<float4> >(x)
v.x < a && b.y > (c)
",
        r"
            (.GetAttributes<Attributes>() hit)
            (.f<float, Texture2D<float4>>() h x)
            (&& (< (. v x) a) (> (. b y) c))
        ",
    );
}

// ---- unsupported Slang

#[test]
fn unsupported_slang_constructs_are_reported_and_skipped() {
    check_with_diagnostics(
        r"
import foo;
interface IFoo { float f(); }
extension float { float twice() { return this * 2; } }
__generic<T> T id(T x) { return x; }
T id2<T>(T x) { return x; }
struct WithMethods {
    float a;
    float get() { return a; }
    __init(float x) { a = x; }
    property float p { get { return a; } }
    void proto();
    float b;
};
struct Gen<T> { T t; };
struct Derived : IFoo { float d; };
float after;
",
        r"
            E20003 1..7 `import` declaration is not supported
            E20003 262..270 `property` member is not supported
            interface IFoo : []
              method float f();
            extension
              struct float
                method float twice(0 params) {...}
            fn T id<T>(T x)
              return x
            fn T id2<T>(T x)
              return x
            struct WithMethods
              field float a
              field float b
              method float get(0 params) {...}
              method void __init(1 params) {...}
              method void proto(0 params) ;
            struct Gen<T>
              field T t
            struct Derived : [IFoo]
              field float d
            var float after
        ",
    );
}

#[test]
fn generic_parameter_lists() {
    check_with_diagnostics(
        r"
T twice<T : IArithmetic>(T x) { T y = x; return y + x; }
float sum<let N : int, int M>(float a[N]) where M : IFoo { return a[0]; }
__generic<U : IFoo, let K : uint>
struct Box : IBar where U : IBaz { U u[K]; }
vector<T, N> scale<T, let N : int>(vector<T, N> v) { return v; }
void use() { float x = twice<float>(1); Box<S, 2> b; }
struct Bad<T = float> { T t; }
",
        r"
            E20001 106..107 `where M`: `M` is not a type parameter of this declaration
            E20003 344..345 a default generic argument is not supported
            fn T twice<T : IArithmetic>(T x)
              var T y = x
              return (+ y x)
            fn float sum<let N : int, let M : int>(float a[N])
              return ([] a 0)
            struct Box<U : IFoo & IBaz, let K : uint> : [IBar]
              field U u[K]
            fn vector<T, #N> scale<T, let N : int>(vector<T, #N> v)
              return v
            fn void use()
              var float x = (call <twice<float>> 1)
              var Box<S, #2> b
        ",
    );
}

#[test]
fn a_comma_may_follow_the_last_parameter() {
    check(
        r"
float f(float a, int b,) { return a; }
func g(x: float, y: float,) -> float { return x; }
",
        r"
            fn float f(float a, int b)
              return a
            fn float g(float x, float y)
              return x
        ",
    );
}

#[test]
fn namespaces_nest_and_qualified_types_parse() {
    check(
        r"
namespace A { struct S { int x; }; namespace B { float f(); } }
A::S make();
void g() { A::S s; A::B::f(); }
",
        r"
            namespace A
            struct S
              field int x
            namespace B
            fn float f();
            end namespace B
            end namespace A
            fn A::S make();
            fn void g()
              var A::S s
              expr (call A::B::f)
        ",
    );
}

// ---- spans

#[test]
fn spans_cover_their_source_text() {
    let src = r#"[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    [unroll] for (int i = 0; i < 2; i++) { x = (a + b) * -c[i].y; }
}
Texture2D<vector<float, 4>> t : register(t0, space1);
"#;
    let (file, diagnostics) = parse_text(src);
    assert!(diagnostics.is_empty());
    let text = |span: Span| &src[span.range()];
    let [Item::Function(main), Item::Var(tex)] = file.items.as_slice() else {
        panic!("{:?}", file.items);
    };
    assert!(text(main.span).starts_with("[numthreads(8, 1, 1)]\nvoid main("));
    assert!(text(main.span).ends_with("}\n}"));
    assert_eq!(text(main.attributes[0].span), "numthreads(8, 1, 1)");
    assert_eq!(text(main.name.span), "main");
    let param = &main.params[0];
    assert_eq!(text(param.span), "uint3 id : SV_DispatchThreadID");
    assert_eq!(text(param.ty.span), "uint3");
    assert_eq!(text(param.declarator.span), "id : SV_DispatchThreadID");
    let PostAnnotation::Semantic(semantic) = &param.declarator.annotations[0] else {
        panic!();
    };
    assert_eq!(text(semantic.span), "SV_DispatchThreadID");

    let body = main.body.as_ref().unwrap();
    let for_stmt = &body.stmts[0];
    assert!(text(body.span).starts_with('{') && text(body.span).ends_with('}'));
    assert!(text(for_stmt.span).starts_with("[unroll] for (int i = 0;"));
    assert!(text(for_stmt.span).ends_with("-c[i].y; }"));
    let StmtKind::For {
        init, cond, body, ..
    } = &for_stmt.kind
    else {
        panic!();
    };
    assert_eq!(text(init.as_ref().unwrap().span), "int i = 0;");
    assert_eq!(text(cond.as_ref().unwrap().span), "i < 2");
    let StmtKind::Block(block) = &body.kind else {
        panic!()
    };
    let StmtKind::Expr(assign) = &block.stmts[0].kind else {
        panic!()
    };
    assert_eq!(text(block.stmts[0].span), "x = (a + b) * -c[i].y;");
    assert_eq!(text(assign.span), "x = (a + b) * -c[i].y");
    let ExprKind::Assign { value, .. } = &assign.kind else {
        panic!()
    };
    assert_eq!(text(value.span), "(a + b) * -c[i].y");
    let ExprKind::Binary { left, right, .. } = &value.kind else {
        panic!()
    };
    assert_eq!(text(left.span), "(a + b)");
    assert_eq!(text(right.span), "-c[i].y");

    assert_eq!(
        text(tex.span),
        "Texture2D<vector<float, 4>> t : register(t0, space1);"
    );
    assert_eq!(text(tex.ty.span), "Texture2D<vector<float, 4>>");
    let GenericArg::Type(inner) = &tex.ty.args[0] else {
        panic!()
    };
    assert_eq!(text(inner.span), "vector<float, 4>");
    let PostAnnotation::Register { span, .. } = &tex.declarators[0].annotations[0] else {
        panic!();
    };
    assert_eq!(text(*span), "register(t0, space1)");
}

// ---- whole shaders

/// Entry points of every stage family, written the way real shaders are.
const STAGES: &str = r#"struct VsOut { float4 pos : SV_Position; float3 wpos : POSITION; };
struct HsOut { float3 pos : POSITION; };
struct PatchConst { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };

PatchConst PatchFn(InputPatch<VsOut, 3> ip, uint pid : SV_PrimitiveID)
{
    PatchConst pc;
    [unroll] for (uint i = 0; i < 3; i++) pc.edges[i] = 4.0;
    pc.inside = 4.0;
    return pc;
}

[domain("tri")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("PatchFn")]
[maxtessfactor(64.0)]
HsOut hs_main(InputPatch<VsOut, 3> ip, uint cpid : SV_OutputControlPointID, uint pid : SV_PrimitiveID)
{
    HsOut o;
    o.pos = ip[cpid].wpos;
    return o;
}

[domain("tri")]
VsOut ds_main(PatchConst pc, float3 bary : SV_DomainLocation, const OutputPatch<HsOut, 3> patch)
{
    VsOut o = (VsOut)0;
    o.wpos = patch[0].pos * bary.x + patch[1].pos * bary.y + patch[2].pos * bary.z;
    o.pos = float4(o.wpos, 1);
    return o;
}

struct GsOut { float4 pos : SV_Position; uint layer : SV_RenderTargetArrayIndex; };

[maxvertexcount(3)]
[instance(2)]
void gs_main(triangle VsOut tri[3], uint iid : SV_GSInstanceID, inout TriangleStream<GsOut> stream)
{
    for (int i = 0; i < 3; ++i)
    {
        GsOut o;
        o.pos = tri[i].pos;
        o.layer = iid;
        stream.Append(o);
    }
    stream.RestartStrip();
}

struct MeshVertex { float4 pos : SV_Position; float3 color : COLOR0; };
struct MeshPrim { uint layer : SV_RenderTargetArrayIndex; bool cull : SV_CullPrimitive; };
struct Payload { uint ids[32]; };
groupshared Payload s_payload;

[numthreads(32, 1, 1)]
[outputtopology("triangle")]
void ms_main(uint gtid : SV_GroupThreadID, in payload Payload pl,
             out vertices MeshVertex verts[64], out indices uint3 tris[126],
             out primitives MeshPrim prims[126])
{
    SetMeshOutputCounts(64, 126);
    if (gtid < 64) { verts[gtid].pos = float4(0, 0, 0, 1); verts[gtid].color = (float3)pl.ids[gtid % 32]; }
    if (gtid < 126) { tris[gtid] = uint3(0, 1, 2); prims[gtid].cull = false; }
}

[numthreads(32, 1, 1)]
void as_main(uint tid : SV_DispatchThreadID)
{
    s_payload.ids[tid] = tid;
    DispatchMesh(1, 1, 1, s_payload);
}

struct RayPayload { float4 color; };
RaytracingAccelerationStructure scene : register(t0);
RWTexture2D<float4> output : register(u0);

[shader("raygeneration")]
void rg_main()
{
    uint2 idx = DispatchRaysIndex().xy;
    RayDesc ray;
    ray.Origin = float3(idx, 0);
    ray.Direction = float3(0, 0, 1);
    ray.TMin = 0.001;
    ray.TMax = 1e4;
    RayPayload payload = { float4(0, 0, 0, 0) };
    TraceRay(scene, RAY_FLAG_NONE, 0xFF, 0, 1, 0, ray, payload);
    output[idx] = payload.color;
}

[shader("closesthit")]
void ch_main(inout RayPayload payload, in BuiltInTriangleIntersectionAttributes attr)
{
    float3 bary = float3(1 - attr.barycentrics.x - attr.barycentrics.y, attr.barycentrics.xy);
    payload.color = float4(bary, 1);
}

[shader("miss")]
void miss_main(inout RayPayload payload) { payload.color = float4(0, 0, 1, 1); }

ByteAddressBuffer raw : register(t1);
AppendStructuredBuffer<uint> appendBuf;
static const uint kMask = ~0u >> 1;
float4 ps(float4 p : SV_Position, uint cov : SV_Coverage, float3 b : SV_Barycentrics) : SV_Target
{
    uint v = raw.Load(4 * (uint)p.x);
    int2 q = int2(p.xy) >> 1;
    bool ok = v > 3 && q.x >= 0 || !(cov & 1);
    v = ok ? v << 2 : v >> 2;
    v >>= 1; v <<= 1; v ^= kMask; v |= 1; v &= 7; v %= 5;
    float x = GetAttributeAtVertex(b, 0).x;
    matrix<float, 2, 2> m = { 1, 0, 0, 1 };
    float2x2 n = mul(m, (float2x2)1);
    do { v--; } while (v > 0 && v != 5);
    return float4(x, n[0][0], v, -1.0e-3f);
}
"#;

#[test]
fn shaders_of_every_stage_parse_cleanly() {
    let (file, diagnostics) = parse_text(STAGES);
    assert!(
        diagnostics.is_empty(),
        "{}",
        render_diagnostics(&diagnostics)
    );
    let functions: Vec<&FunctionDecl> = file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Function(f) => Some(f),
            _ => None,
        })
        .collect();
    let names: Vec<&str> = functions.iter().map(|f| f.name.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "PatchFn",
            "hs_main",
            "ds_main",
            "gs_main",
            "ms_main",
            "as_main",
            "rg_main",
            "ch_main",
            "miss_main",
            "ps"
        ]
    );
    let hull = functions[1];
    let attrs: Vec<&str> = hull.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        attrs,
        [
            "domain",
            "partitioning",
            "outputtopology",
            "outputcontrolpoints",
            "patchconstantfunc",
            "maxtessfactor"
        ]
    );
    let mesh = functions[4];
    let mesh_mods: Vec<String> = mesh
        .params
        .iter()
        .map(|p| render_mods(&p.modifiers))
        .collect();
    assert_eq!(
        mesh_mods,
        [
            "",
            "in payload ",
            "out vertices ",
            "out indices ",
            "out primitives "
        ]
    );
    assert_eq!(file.items.len(), 24);
}

#[test]
fn glsl_buffer_blocks_and_layout_in_beside_a_variable_named_buffer() {
    check(
        r"
layout(derivative_group_quadsNV) in;
layout(std430, binding = 2) buffer Block { int count; float3 dir; } block;
buffer Bare { uint hits; };
RWStructuredBuffer<uint> buffer;
",
        r"
            layout [derivative_group_quadsNV] in
            buffer [std430, binding] Block block
              field int count
              field float3 dir
            buffer [] Bare
              field uint hits
            var RWStructuredBuffer<uint> buffer
        ",
    );
}

#[test]
fn an_extern_struct_with_a_default_is_an_extension_and_an_alias() {
    check(
        "extern struct Input : IInput = Standard;",
        r"
            extension
              struct Standard : [IInput]
            typedef Input = Standard
        ",
    );
}
