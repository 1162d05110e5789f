                                                            -*- C -*-
# libmegaco's bison skeleton: bison's yacc.c with a leaner parse loop.
#
# The text decoder spends about a quarter of its instructions in the LALR(1)
# driver loop of bison's yacc.c, whose generality (error recovery, a stack
# that grows, the lookahead kept in a variable that actions may change) this
# grammar never uses. This skeleton lets yacc.c do everything else (the
# header with tokens and YYSTYPE, every table, every M4 definition), sends
# yacc.c's parser file to an unused file beside ours (OUTPUT.yacc-unused),
# and writes its own parser file: the same tables and user code around a
# loop that does only what this grammar needs. Requires bison 3.8
# (TextGrammar.cmake checks; other versions get yacc.c itself, which behaves
# the same).
#
# What the loop leaves out, and why that is safe here:
# - Error recovery: the grammar has no `error` rules, so a syntax error ends
#   the parse (as yacc.c's recovery would, having nothing to shift). The
#   scanner's error token (YYerror) ends it without a report, as in yacc.c,
#   where the parse finds it cannot take it: no state can shift it (no
#   `error` rules), so no token is tested for it on the way in. Default
#   reductions before that point run their actions, which only build; the
#   scanner's error is still the one reported (text_scan_took_error).
# - The scanner returns token kinds >= 0 (its end of input is YYEOF, 0).
# - The default `$$ = $1` applies only to rules without an action (where
#   $1 stays in the stack slot that becomes $$, so nothing is copied): every
#   action here sets $$ when its rule has a value (bison -Wall warns of a
#   typed rule whose action never mentions $$).
# - The stacks start on the C stack and move to YYSTACK_ALLOC's memory when
#   full, as yacc.c's do; YYMAXDEPTH bounds them (memory exhausted: yyerror,
#   then 2).
# - No YYERROR, YYBACKUP, yyerrok, yyclearin, %destructor, %locations,
#   push parsing or tracing (YYDEBUG): the build fails if the grammar uses
#   the ones bison checks, and the loop never calls the others.
#
# M4 quotes with square brackets, so the C below indexes with *(t + i), and
# declares arrays with bison's @{ @} for [ ].

m4_define([b4_lean_parser_file_name], m4_defn([b4_parser_file_name]))
# Not /dev/null: bison deletes the files it was writing when it fails, and
# run as root it would delete /dev/null (as a refused grammar did in CI).
m4_define([b4_parser_file_name],
          m4_dquote(m4_unquote(m4_defn([b4_lean_parser_file_name]))[.yacc-unused]))
m4_include(b4_skeletonsdir/[yacc.c])

# Each action's case ends by storing $$ in its stack slot and setting the
# rule's length and left-hand side as constants (from the r2 and r1 tables,
# which are indexed by the same number as the case), so that the goto after
# it does not wait for two table loads that depend on the rule number just
# loaded. This is bison 3.8's b4_case (c.m4: LABEL, STATEMENTS, COMMENTS)
# with those lines added.
m4_define([b4_case],
[  case $1:m4_ifval([$3], [ b4_comment([$3])])
$2
b4_syncline([@oline@], [@ofile@])dnl
b4_lean_value(b4_lean_rule_lhs([$1]), b4_lean_rule_len([$1]))dnl
    yylen = b4_lean_rule_len([$1]);
b4_lean_goto(m4_eval(b4_lean_rule_lhs([$1]) - b4_tokens_number), b4_lean_rule_len([$1]))])

# b4_lean_rule_lhs(RULE), b4_lean_rule_len(RULE): the rule's left-hand side
# (a symbol number) and length, from yacc.c's r1 and r2 tables.
m4_define([b4_lean_rule_lhs], [m4_argn(m4_eval([$1 + 1]), m4_unquote(b4_r1))])
m4_define([b4_lean_rule_len], [m4_argn(m4_eval([$1 + 1]), m4_unquote(b4_r2))])

# b4_lean_value(LHS-SYMBOL, RULE-LENGTH): $$ into the slot it takes, the
# first of the right-hand side's (or a fresh one for an empty rule). Only
# the left-hand side's member of the union is copied: the action has just
# stored that member, often narrower than the union (a pointer in a 16-byte
# YYSTYPE), and a wider load right behind a narrower store to the same place
# cannot take its bytes from the store. It waits for the store to reach the
# cache instead, which cost 5-10 % of a text decode's time here (perf: a
# third of yyparse's samples sat on yacc.c's `*++yyvsp = yyval`). A
# symbol without a type has no value to keep (b4_lhs_value below sees that
# no action gives it one).
m4_define([b4_lean_value],
[b4_symbol_if([$1], [has_type],
[[    yyvsp@{1 - $2@}.]b4_symbol([$1], [type])[ = yyval.]b4_symbol([$1], [type])[;
]])])

# $$ in an action: yacc.c's, refusing $<tag>$ for a tag other than the
# symbol's own type, whose value b4_lean_value would not keep.
m4_define([b4_lhs_value],
[m4_ifval([$2],
          [m4_if(b4_symbol_if([$1], [has_type], [b4_symbol([$1], [type])]), $2, [],
                 [b4_complain([[lean-lalr.m4: $<%s>$ needs the left-hand side's own type]], $2)])])dnl
b4_symbol_value([yyval], [$1], [$2])])

# b4_lean_goto(LHS, RULE-LENGTH): the end of an action's case. A left-hand
# side whose goto row is empty goes to its default state whatever state lies
# below, so the case sets that state as a constant and skips the goto's stack
# read and table loads. bison marks an empty row in yypgoto with the same "no
# entries" value as in yypact, one it picks below every real row base, so
# the test cannot mistake a real row for an empty one. Such a rule pops at
# least one entry (an empty rule takes the general way), so it pushes into a
# slot the stacks already have, without a check for room.
m4_define([b4_lean_goto],
[m4_if(m4_argn(m4_eval([$1 + 1]), m4_unquote(b4_pgoto)) m4_eval([$2 > 0]), b4_pact_ninf[ 1],
[    yystate = m4_argn(m4_eval([$1 + 1]), m4_unquote(b4_defgoto));
    goto yyreduced_to;],
[    yylhs = $1;
    break;])])

# The check table, padded with -1 (no token, no state) below and above
# yacc.c's so that every index a lookup can form is inside it: a row base
# from pact or pgoto (their minimum is at or below any real base) plus a
# token or a state number. The lookups then need no range test.
m4_define([b4_lean_min], [m4_if(m4_eval([$1 < $2]), 1, [$1], [$2])])
m4_define([b4_lean_max], [m4_if(m4_eval([$1 > $2]), 1, [$1], [$2])])
m4_define([b4_lean_check_lo],
[m4_eval(0 - b4_lean_min(0, b4_lean_min(b4_pact_min, b4_pgoto_min)))])
m4_define([b4_lean_check_hi],
[m4_eval(b4_lean_max(0, b4_lean_max(b4_pact_max + b4_tokens_number,
                                    b4_pgoto_max + b4_states_number) - b4_last - 1))])
m4_define([b4_lean_pad], [m4_if(m4_eval([$1 > 0]), 1, [m4_for([b4_lean_i], 1, [$1], 1, [ -1,])])])

# Acceptance is the default reduction of the final state by rule 1
# ($accept: start $end), reached after shifting the end of input: the loop
# accepts there (case 1 below) instead of testing each shifted token.
m4_if(m4_argn(m4_eval(b4_final_state_number + 1), m4_unquote(b4_pact)), b4_pact_ninf, [],
      [b4_complain([[lean-lalr.m4: the final state reads a lookahead]])])
m4_if(m4_argn(m4_eval(b4_final_state_number + 1), m4_unquote(b4_defact)), 1, [],
      [b4_complain([[lean-lalr.m4: the final state does not reduce by rule 1]])])

b4_locations_if([b4_complain([lean-lalr.m4: %locations is not supported])])
b4_push_if([b4_complain([lean-lalr.m4: push parsers are not supported])])

b4_output_begin([b4_lean_parser_file_name])[
/* Generated by bison ]b4_version_string[ from the grammar with libmegaco's
   grammar/lean-lalr.m4 skeleton (see its head for how it differs from
   yacc.c). */

#define YYBISON ]b4_version[
#define YYPURE ]b4_pure_flag[
]b4_percent_code_get([[top]])[]dnl
m4_if(b4_api_prefix, [yy], [],
[[#define YYSTYPE         ]b4_api_PREFIX[STYPE]])[
]m4_if(b4_prefix, [yy], [],
[[#define yyparse         ]b4_prefix[parse
#define yylex           ]b4_prefix[lex
#define yyerror         ]b4_prefix[error]])[

]b4_user_pre_prologue[
]b4_cast_define[
]b4_null_define[

]b4_header_include_if([[#include ]b4_percent_define_get([[api.header.include]])],
                      [b4_shared_declarations])[
]b4_declare_symbol_enum[

]b4_user_post_prologue[
]b4_percent_code_get[
]b4_c99_int_type_define[
]b4_attribute_define[
#include <stdlib.h>
#include <string.h>

typedef ]b4_int_type(0, m4_eval(b4_states_number - 1))[ yy_state_t;

#define YYFINAL  ]b4_final_state_number[
#define YYLAST   ]b4_last[
#define YYNTOKENS  ]b4_tokens_number[
#define YYPACT_NINF (]b4_pact_ninf[)
#define YYTABLE_NINF (]b4_table_ninf[)
/* As yacc.c: a constant 0 when the table cannot hold the value at all. */
#define yypact_value_is_default(Yyn) \
  ]b4_table_value_equals([[pact]], [[Yyn]], [b4_pact_ninf], [YYPACT_NINF])[
#define yytable_value_is_error(Yyn) \
  ]b4_table_value_equals([[table]], [[Yyn]], [b4_table_ninf], [YYTABLE_NINF])[

#ifndef YYINITDEPTH
# define YYINITDEPTH ]b4_stack_depth_init[
#endif
#ifndef YYMAXDEPTH
# define YYMAXDEPTH ]b4_stack_depth_max[
#endif

/*
 * yacc.c's tables, as members of one object: the parse loop reaches them
 * all through one pointer it keeps in a register (yyT in yyparse).
 * Separate arrays in position-independent code cost an instruction more
 * per load, to form each array's address from the program counter.
 */
static const struct yytables
{
  ]b4_int_type_for([b4_pact])[ pact@{]m4_count(m4_unquote(b4_pact))[@};
  ]b4_int_type_for([b4_defact])[ defact@{]m4_count(m4_unquote(b4_defact))[@};
  ]b4_int_type_for([b4_pgoto])[ pgoto@{]m4_count(m4_unquote(b4_pgoto))[@};
  ]b4_int_type_for([b4_defgoto])[ defgoto@{]m4_count(m4_unquote(b4_defgoto))[@};
  ]b4_int_type_for([b4_table])[ table@{]m4_count(m4_unquote(b4_table))[@};
  ]b4_int_type([-1], b4_check_max)[ check@{]m4_eval(b4_lean_check_lo + m4_count(m4_unquote(b4_check)) + b4_lean_check_hi)[@};
  ]b4_int_type_for([b4_r1])[ r1@{]m4_count(m4_unquote(b4_r1))[@};
  ]b4_int_type_for([b4_r2])[ r2@{]m4_count(m4_unquote(b4_r2))[@};
} yytables =
{
  {
  ]b4_pact[
  },
  {
  ]b4_defact[
  },
  {
  ]b4_pgoto[
  },
  {
  ]b4_defgoto[
  },
  {
  ]b4_table[
  },
  {
  ]b4_lean_pad(b4_lean_check_lo)[
  ]b4_check[,
  ]b4_lean_pad(b4_lean_check_hi)[
  },
  {
  ]b4_r1[
  },
  {
  ]b4_r2[
  }
};
#define yypact (yyT->pact)
#define yydefact (yyT->defact)
#define yypgoto (yyT->pgoto)
#define yydefgoto (yyT->defgoto)
#define yytable (yyT->table)
#define yycheck (yyT->check + ]b4_lean_check_lo[)
#define yyr1 (yyT->r1)
#define yyr2 (yyT->r2)

/* The name of a symbol, for messages. */
static const char *yysymbol_name (yysymbol_kind_t yysymbol) YY_ATTRIBUTE_UNUSED;
static const char *
yysymbol_name (yysymbol_kind_t yysymbol)
{
  static const char *const yy_sname@{@} =
  {
  ]b4_symbol_names[
  };
  return *(yy_sname + yysymbol);
}

/* What a syntax error's report can ask: the state stack's top and the lookahead. */
typedef struct
{
  yy_state_t *yyssp;
  yysymbol_kind_t yytoken;
} yypcontext_t;

static yysymbol_kind_t
yypcontext_token (const yypcontext_t *yyctx)
{
  return yyctx->yytoken;
}

/*
 * The tokens the top state can shift or reduce on (at most yyargn of them,
 * in symbol order, into yyarg; YYSYMBOL_YYEMPTY alone if none). Returns
 * their number, or 0 when there are more than yyargn; the same contract as
 * yacc.c's, which the error messages rely on.
 */
static int
yypcontext_expected_tokens (const yypcontext_t *yyctx,
                            yysymbol_kind_t yyarg@{@}, int yyargn)
{
  const struct yytables *yyT = &yytables;
  int yycount = 0;
  int yyn = *(yypact + *yyctx->yyssp);
  if (!yypact_value_is_default (yyn))
    {
      int yyx = yyn < 0 ? -yyn : 0;
      int yyend = YYLAST - yyn + 1 < YYNTOKENS ? YYLAST - yyn + 1 : YYNTOKENS;
      for (; yyx < yyend; yyx++)
        if (*(yycheck + yyx + yyn) == yyx && yyx != YYSYMBOL_YYerror
            && !yytable_value_is_error (*(yytable + yyx + yyn)))
          {
            if (!yyarg)
              yycount++;
            else if (yycount == yyargn)
              return 0;
            else
              *(yyarg + yycount++) = YY_CAST (yysymbol_kind_t, yyx);
          }
    }
  if (yyarg && yycount == 0 && 0 < yyargn)
    *yyarg = YYSYMBOL_YYEMPTY;
  return yycount;
}

static int yyreport_syntax_error (const yypcontext_t *yyctx]b4_user_formals[);

#define YYACCEPT goto yyacceptlab
#define YYABORT goto yyabortlab
#define YYNOMEM goto yyexhaustedlab

/*
 * The stacks, on the C stack until they fill: then both move to one block
 * twice the size (up to YYMAXDEPTH), from YYSTACK_ALLOC(Size), which may use
 * the parse parameters. The grammar's own YYSTACK_ALLOC hands out memory it
 * reclaims itself, as with yacc.c; without one, malloc and free.
 */
#ifndef YYSTACK_ALLOC
# define YYSTACK_ALLOC(Size) malloc (Size)
# define YYSTACK_RELEASE(Ptr) free (Ptr)
#else
# define YYSTACK_RELEASE(Ptr) ((void) (Ptr))
#endif

typedef struct
{
  yy_state_t *ss, *ssp;
  yy_state_t *ss_full; /* a push here must grow them first: one slot stays spare */
  YYSTYPE *vs, *vsp;
  void *heap;
  long size;
} yystacks;

static int
yystacks_grow (yystacks *yyst]b4_user_formals[)
{
  ]b4_parse_param_use[
  long yyused = yyst->ssp - yyst->ss + 1;
  long yysize = yyst->size * 2;
  if (yyst->size >= YYMAXDEPTH)
    return -1;
  if (yysize > YYMAXDEPTH)
    yysize = YYMAXDEPTH;
  YYSTYPE *yyvs = YY_CAST (YYSTYPE *, YYSTACK_ALLOC ((size_t) yysize * (sizeof (YYSTYPE) + sizeof (yy_state_t))));
  if (!yyvs)
    return -1;
  yy_state_t *yyss = YY_CAST (yy_state_t *, yyvs + yysize);
  memcpy (yyvs, yyst->vs, (size_t) yyused * sizeof *yyvs);
  memcpy (yyss, yyst->ss, (size_t) yyused * sizeof *yyss);
  YYSTACK_RELEASE (yyst->heap);
  yyst->heap = yyvs;
  yyst->vs = yyvs;
  yyst->vsp = yyvs + yyused - 1;
  yyst->ss = yyss;
  yyst->ssp = yyss + yyused - 1;
  yyst->ss_full = yyss + yysize - 2;
  yyst->size = yysize;
  return 0;
}

int
yyparse (]m4_ifset([b4_parse_param], [b4_formals(b4_parse_param)], [void])[)
{
  /* The tables' address, hidden from the optimiser so that it stays in a
     register rather than being formed again at every load. */
  const struct yytables *yyT = &yytables;
#if defined __GNUC__
  __asm__ ("" : "+r" (yyT));
#endif
  YYSTYPE yylval;
  YYSTYPE yyval;
  yy_state_t yyssa@{YYINITDEPTH@};
  YYSTYPE yyvsa@{YYINITDEPTH@};
  yystacks yyst = {yyssa, yyssa, yyssa + YYINITDEPTH - 2, yyvsa, yyvsa, YY_NULLPTR, YYINITDEPTH};
  /* Kept in locals so that they stay in registers; synced with yyst to grow. */
  yy_state_t *yyssp = yyssa;
  YYSTYPE *yyvsp = yyvsa;
  /* Table indexes and what is added to them are long: no sign extension
     between a load and the index it feeds. */
  long yystate = 0;
  long yyn;
  long yylen;
  long yylhs;
  int yyresult;
  long yytoken = YYSYMBOL_YYEMPTY; /* the lookahead's symbol (raw token kinds) */
  /* Room for one push, growing the stacks (in yyst) if they are full. */
#define YYSTACKS_ROOM()                                         \
  do                                                            \
    if (yyssp >= yyst.ss_full)                                  \
      {                                                         \
        yyst.ssp = yyssp;                                       \
        yyst.vsp = yyvsp;                                       \
        if (yystacks_grow (&yyst]b4_user_args[))                      \
          goto yyexhaustedlab;                                  \
        yyssp = yyst.ssp;                                       \
        yyvsp = yyst.vsp;                                       \
      }                                                         \
  while (0)

]b4_user_initial_action[
  *yyssp = 0;
  for (;;)
    {
      /* yystate is on top of the stack. Is a lookahead needed? */
      yyn = *(yypact + yystate);
      if (yypact_value_is_default (yyn))
        goto yydefault;
      if (yytoken == YYSYMBOL_YYEMPTY)
        {
        yyread:
          yytoken = ]b4_yylex[;
        }
      yyn += yytoken;
      if (*(yycheck + yyn) != yytoken)
        goto yydefault;
      yyn = *(yytable + yyn);
      if (yyn <= 0)
        {
          if (yytable_value_is_error (yyn))
            goto yyerrlab;
          yyn = -yyn;
          goto yyreduce;
        }
      /* Shift (the end of input too: into YYFINAL, which accepts). */
      YYSTACKS_ROOM ();
      *++yyssp = YY_CAST (yy_state_t, yyn);
      *++yyvsp = yylval;
      yystate = yyn;
      /* The new state has no lookahead yet: read one if it needs one. */
      yyn = *(yypact + yystate);
      if (!yypact_value_is_default (yyn))
        goto yyread;
      yytoken = YYSYMBOL_YYEMPTY;

    yydefault:
      yyn = *(yydefact + yystate);
      if (yyn == 0)
        goto yyerrlab;
    yyreduce:
      switch (yyn)
        {
]b4_user_actions[
        case 1: /* $accept: the end of input is shifted */
          goto yyacceptlab;
        default:
          /* No action: $$ is $1, which is already in the slot $$ takes
             (for an empty rule, $$ is the garbage of a fresh slot). */
          yylen = *(yyr2 + yyn);
          yylhs = *(yyr1 + yyn) - YYNTOKENS;
          break;
        }
      /* The slot of $$ (the action has stored $$ there) is the new top. */
      yyvsp += 1 - yylen;
      yyssp -= yylen;
      {
        const long yyi = *(yypgoto + yylhs) + *yyssp;
        yystate = (*(yycheck + yyi) == *yyssp
                   ? *(yytable + yyi)
                   : *(yydefgoto + yylhs));
      }
      YYSTACKS_ROOM ();
      *++yyssp = YY_CAST (yy_state_t, yystate);
      continue;
    yyreduced_to: /* from an action (yylen > 0) that has set the state to go to */
      yyvsp += 1 - yylen;
      yyssp -= yylen;
      *++yyssp = YY_CAST (yy_state_t, yystate);
    }

yyerrlab:
  if (yytoken == YYSYMBOL_YYerror)
    goto yyabortlab; /* the scanner's error: it has recorded it */
  {
    yypcontext_t yyctx = {yyssp, YY_CAST (yysymbol_kind_t, yytoken)};
    if (yyreport_syntax_error (&yyctx]b4_user_args[) == 2)
      goto yyexhaustedlab;
  }
  goto yyabortlab;

yyacceptlab:
  yyresult = 0;
  goto yyreturnlab;

yyabortlab:
  yyresult = 1;
  goto yyreturnlab;

yyexhaustedlab:
  yyerror (]b4_yyerror_args["memory exhausted");
  yyresult = 2;

yyreturnlab:
  YYSTACK_RELEASE (yyst.heap);
  return yyresult;
#undef YYSTACKS_ROOM
}

]b4_percent_code_get([[epilogue]])[]dnl
b4_epilogue[]dnl
b4_output_end
