#!/usr/bin/env escript
%% -*- erlang -*-
%%
%% The Erlang side of megaco-bench: times Erlang/OTP megaco's codecs over the
%% SAME corpus files with the SAME method as tools/megaco-bench, and prints
%% the same JSON (megaco-bench --compare-erlang reads it) or a table.
%%
%% Method: per message, take its bytes in the row's encoding, decode them into
%% the record and encode that record (same codec, same config); warm up each
%% operation for min-time/10, then loop it for at least min-time; mean time
%% per call; average over messages. Every call is checked (decode gives
%% {ok, _}; encode gives {ok, Bin} of the first call's size); a failure stops
%% the row with the message name and the error.
%%
%% Rows and their input bytes:
%%   pretty, pretty [flex]    corpus pretty/ files (megaco_pretty_text_encoder)
%%   compact, compact [flex]  corpus compact/ files (megaco_compact_text_encoder)
%%   ber                      corpus ber/ files (megaco_ber_encoder)
%%   per                      corpus aper/ files (megaco_per_encoder, ALIGNED
%%                            PER, which made them: libmegaco's per row reads
%%                            and writes the same bytes)
%%   erl_dist                 Erlang's own encoding of the record decoded from
%%                            pretty/ with megaco_erl_dist_encoder
%% Binary decoders get the message version from the manifest, as the megaco
%% stack gets it from version_of/2 before decoding; text decoders find it in
%% the text. Encoding configs are [] and, for [flex], [{flex, PortOrPorts}]
%% from megaco_flex_scanner:start() (the reentrant scanner when the runtime
%% has SMP).
%%
%% Usage: megaco-bench.escript [--corpus DIR] [--set NAME] [--messages GLOB]
%%          [--codecs LIST] [--min-time S] [--repeat N] [--format json|table]
%%          [--progress]
%% Exit status: 0 every row ok; 1 a row failed; 2 usage or set-up error.
%%
%% The manifest is read line by line: corpus/manifest.yaml is generated
%% (tools/gen-corpus.escript) with a fixed layout, and OTP has no YAML reader.

-mode(compile).

main(Args) ->
    try
        Opts = parse_opts(Args, defaults()),
        halt(run(Opts))
    catch
        throw:{usage, Msg} ->
            io:format(standard_error, "megaco-bench.escript: ~s~n~s", [Msg, usage()]),
            halt(2);
        throw:{setup, Msg} ->
            io:format(standard_error, "megaco-bench.escript: ~s~n", [Msg]),
            halt(2)
    end.

usage() ->
    "usage: megaco-bench.escript [--corpus DIR] [--set NAME] [--messages GLOB]\n"
    "         [--codecs pretty,compact,ber,per,erl_dist] [--min-time SECONDS]\n"
    "         [--repeat N] [--format json|table] [--progress]\n".

%% Default corpus: <source>/corpus for tools/erl/ in a source tree, else the
%% corpus/ installed beside the script (<datadir>/megaco/).
defaults() ->
    Here = filename:dirname(filename:absname(escript:script_name())),
    InTree = filename:join([Here, "..", "..", "corpus"]),
    Corpus = case filelib:is_regular(filename:join(InTree, "manifest.yaml")) of
                 true -> InTree;
                 false -> filename:join(Here, "corpus")
             end,
    #{corpus => Corpus, set => "time_test", glob => undefined,
      codecs => all, min_time => 0.01, repeat => 1, format => json, progress => false}.

parse_opts(["--corpus", D | T], O) -> parse_opts(T, O#{corpus => D});
parse_opts(["--set", S | T], O) -> parse_opts(T, O#{set => S});
parse_opts(["--messages", G | T], O) -> parse_opts(T, O#{glob => G});
parse_opts(["--codecs", L | T], O) ->
    parse_opts(T, O#{codecs => string:lexemes(L, ",")});
parse_opts(["--min-time", S | T], O) ->
    case number(S) of
        V when V > 0, V =< 60 -> parse_opts(T, O#{min_time => V});
        _ -> throw({usage, "--min-time wants seconds in (0, 60]"})
    end;
parse_opts(["--repeat", S | T], O) ->
    case catch list_to_integer(S) of
        N when is_integer(N), N > 0 -> parse_opts(T, O#{repeat => N});
        _ -> throw({usage, "--repeat wants a positive whole number"})
    end;
parse_opts(["--format", "json" | T], O) -> parse_opts(T, O#{format => json});
parse_opts(["--format", "table" | T], O) -> parse_opts(T, O#{format => table});
parse_opts(["--progress" | T], O) -> parse_opts(T, O#{progress => true});
parse_opts([], O) -> O;
parse_opts([X | _], _) -> throw({usage, "unknown option or missing value: " ++ X}).

number(S) ->
    case string:to_float(S) of
        {F, ""} -> F;
        _ -> case string:to_integer(S) of
                 {I, ""} -> I;
                 _ -> error
             end
    end.

%% ---------------------------------------------------------------------------
%% run

run(#{corpus := Dir, set := Set, glob := Glob, min_time := MinTime,
      repeat := Repeat, codecs := Only} = O) ->
    Msgs = load_corpus(Dir, Set, Glob),
    Flex = start_flex(),
    Rows = [measure_row(C, Msgs, O)
            || {Codec, _, _, _} = C <- codecs(Flex),
               Only =:= all orelse lists:member(atom_to_list(Codec), Only)],
    Report = #{host => host(Flex), corpus => Dir, set => Set, glob => Glob,
               messages => length(Msgs), min_time => MinTime, repeat => Repeat,
               rows => Rows},
    case maps:get(format, O) of
        json -> io:put_chars(json(Report));
        table -> io:put_chars(table(Report))
    end,
    case [R || #{status := failed} = R <- Rows] of
        [] -> 0;
        _ -> 1
    end.

%% {Codec, Config, Module, EncodingConfig | {unavailable, Why}}
codecs(Flex) ->
    FlexEC = case Flex of
                 {ok, P} -> [{flex, P}];
                 {error, Why} -> {unavailable, Why}
             end,
    [{pretty, "", megaco_pretty_text_encoder, []},
     {pretty, "flex", megaco_pretty_text_encoder, FlexEC},
     {compact, "", megaco_compact_text_encoder, []},
     {compact, "flex", megaco_compact_text_encoder, FlexEC},
     {ber, "", megaco_ber_encoder, []},
     {per, "", megaco_per_encoder, []},
     {erl_dist, "", megaco_erl_dist_encoder, []}].

start_flex() ->
    case megaco_flex_scanner:is_enabled() of
        false -> {error, "megaco was built without the flex scanner"};
        true ->
            case megaco_flex_scanner:start() of
                {ok, P} -> {ok, P};
                Other -> {error, flat("megaco_flex_scanner:start() gave ~0p", [Other])}
            end
    end.

%% ---------------------------------------------------------------------------
%% one row: Repeat runs, median per column

measure_row({Codec, Config, _, {unavailable, Why}}, _Msgs, _O) ->
    (row(Codec, Config))#{status => unavailable, error => Why};
measure_row({Codec, Config, Mod, EC}, Msgs, #{min_time := MinTime, repeat := Repeat} = O) ->
    maps:get(progress, O) andalso
        io:format(standard_error, "megaco-bench.escript: ~s~n", [label(Codec, Config)]),
    MinNs = round(MinTime * 1.0e9),
    Runs = run_repeated(Repeat, Codec, Mod, EC, Msgs, MinNs, []),
    case Runs of
        {error, Why, N} ->
            (row(Codec, Config))#{status => failed, error => Why, messages => N};
        _ ->
            Med = fun(K) -> median([maps:get(K, R) || R <- Runs]) end,
            Enc = Med(encode_ns), Dec = Med(decode_ns),
            (row(Codec, Config))#{status => ok, messages => maps:get(messages, hd(Runs)),
                                  size => Med(size), encode_ns => Enc, decode_ns => Dec,
                                  total_ns => Enc + Dec, msgs_per_s => 1.0e9 / (Enc + Dec)}
    end.

row(Codec, Config) ->
    #{codec => atom_to_list(Codec), config => Config, status => ok, error => "",
      messages => 0, size => 0, encode_ns => 0, decode_ns => 0, total_ns => 0,
      msgs_per_s => 0}.

run_repeated(0, _, _, _, _, _, Acc) -> Acc;
run_repeated(N, Codec, Mod, EC, Msgs, MinNs, Acc) ->
    case run_once(Codec, Mod, EC, Msgs, MinNs) of
        {error, _, _} = E -> E;
        R -> run_repeated(N - 1, Codec, Mod, EC, Msgs, MinNs, [R | Acc])
    end.

run_once(Codec, Mod, EC, Msgs, MinNs) ->
    try
        Per = [measure_message(Codec, Mod, EC, M, MinNs) || M <- Msgs],
        N = length(Per),
        Avg = fun(I) -> lists:sum([element(I, P) || P <- Per]) / N end,
        #{messages => N, size => Avg(1), encode_ns => Avg(2), decode_ns => Avg(3)}
    catch
        throw:{failed, Name, What, Reason, Done} ->
            {error, flat("~s: ~s: ~0P", [Name, What, Reason, 12]), Done}
    end.

%% -> {Size, EncodeNs, DecodeNs}
measure_message(Codec, Mod, EC, #{name := Name} = M, MinNs) ->
    Bin = input(Codec, M),
    Dec = decoder(Codec, Mod, EC, maps:get(version, M)),
    Fail = fun(What, Why) -> throw({failed, Name, What, Why, 0}) end,
    Msg = case catch Dec(Bin) of
              {ok, R} -> R;
              Bad -> Fail("decode", Bad)
          end,
    Size = case catch Mod:encode_message(EC, Msg) of
               {ok, B} -> iolist_size(B);
               Bad2 -> Fail("encode", Bad2)
           end,
    DecOp = fun() ->
                    case Dec(Bin) of
                        {ok, _} -> ok;
                        E -> Fail("decode", E)
                    end
            end,
    EncOp = fun() ->
                    case Mod:encode_message(EC, Msg) of
                        {ok, B2} ->
                            case iolist_size(B2) of
                                Size -> ok;
                                S2 -> Fail("encode", {size_changed, S2, Size})
                            end;
                        E -> Fail("encode", E)
                    end
            end,
    Warm = MinNs div 10,
    _ = timed(DecOp, Warm),
    DecNs = timed(DecOp, MinNs),
    _ = timed(EncOp, Warm),
    EncNs = timed(EncOp, MinNs),
    {Size, EncNs, DecNs}.

decoder(Codec, Mod, EC, _V) when Codec =:= pretty; Codec =:= compact ->
    fun(Bin) -> Mod:decode_message(EC, Bin) end;
decoder(_, Mod, EC, V) ->
    fun(Bin) -> Mod:decode_message(EC, V, Bin) end.

%% The bytes the row decodes: the corpus file (per: aper/), or (erl_dist)
%% Erlang's own encoding of the record decoded from pretty text.
input(Codec, #{files := Files}) when Codec =:= pretty; Codec =:= compact; Codec =:= ber ->
    maps:get(Codec, Files);
input(per, #{files := Files, name := Name}) ->
    case maps:find(aper, Files) of
        {ok, B} -> B;
        error -> throw({failed, Name, "making input", "the corpus has no aper file", 0})
    end;
input(erl_dist, #{files := Files, name := Name}) ->
    Mod = megaco_erl_dist_encoder,
    case megaco_pretty_text_encoder:decode_message([], maps:get(pretty, Files)) of
        {ok, Msg} ->
            case Mod:encode_message([], Msg) of
                {ok, B} -> iolist_to_binary(B);
                E -> throw({failed, Name, "making input", E, 0})
            end;
        E -> throw({failed, Name, "making input (pretty decode)", E, 0})
    end.

%% Calls Op in batches until at least MinNs have passed; batches double while
%% short so reading the clock costs nothing measurable. Mean ns per call.
timed(Op, MinNs) -> timed(Op, MinNs, 0, 0, 1).

timed(Op, MinNs, Total, Calls, Batch) when Total < MinNs; Calls =:= 0 ->
    T0 = erlang:monotonic_time(nanosecond),
    loop(Op, Batch),
    Dt = erlang:monotonic_time(nanosecond) - T0,
    Next = case Dt < MinNs div 32 + 1 of
               true -> Batch * 2;
               false -> Batch
           end,
    timed(Op, MinNs, Total + Dt, Calls + Batch, Next);
timed(_, _, Total, Calls, _) ->
    Total / Calls.

loop(_, 0) -> ok;
loop(Op, N) -> Op(), loop(Op, N - 1).

median(L) ->
    S = lists:sort(L),
    N = length(S),
    case N rem 2 of
        1 -> lists:nth(N div 2 + 1, S);
        0 -> (lists:nth(N div 2, S) + lists:nth(N div 2 + 1, S)) / 2
    end.

%% ---------------------------------------------------------------------------
%% corpus: manifest.yaml, read by its fixed layout

load_corpus(Dir, Set, Glob) ->
    Path = filename:join(Dir, "manifest.yaml"),
    Text = case file:read_file(Path) of
               {ok, B} -> binary_to_list(B);
               {error, E} -> throw({setup, flat("~s: ~p", [Path, E])})
           end,
    Lines = string:split(Text, "\n", all),
    {Dirs, Msgs} = scan_manifest(Lines, Set, undefined, #{}, []),
    Re = glob_re(Glob),
    Selected = [M || #{name := N} = M <- lists:reverse(Msgs), matches(Re, N)],
    Selected =/= [] orelse
        throw({setup, flat("no message of set '~s' matches '~s'", [Set, glob_str(Glob)])}),
    [M#{files => read_files(Dir, Dirs, M)} || M <- Selected].

glob_str(undefined) -> "*";
glob_str(G) -> G.

scan_manifest([], _, _, Dirs, Msgs) -> {Dirs, Msgs};
scan_manifest([L | Ls], Set, Cur, Dirs, Msgs) ->
    case re:run(L, "^  - name: *\"?([^\" ]+)\"?\\s*$", [{capture, all_but_first, list}]) of
        {match, [S]} -> scan_manifest(Ls, Set, S, Dirs, Msgs);
        nomatch when Cur =/= Set -> scan_manifest(Ls, Set, Cur, Dirs, Msgs);
        nomatch -> scan_manifest(Ls, Set, Cur, set_line(L, Dirs), msg_line(L, Msgs))
    end.

set_line(L, Dirs) ->
    case re:run(L, "^    dirs: *\\{(.*)\\}", [{capture, all_but_first, list}]) of
        {match, [Body]} ->
            maps:from_list([{list_to_atom(string:trim(K)), string:trim(V)}
                            || KV <- string:split(Body, ",", all),
                               [K, V] <- [string:split(KV, ":")]]);
        nomatch -> Dirs
    end.

msg_line(L, Msgs) ->
    case re:run(L, "^      - name: *\"?([^\" ]+)\"?", [{capture, all_but_first, list}]) of
        {match, [N]} -> [#{name => N, version => 1, encodings => []} | Msgs];
        nomatch ->
            case {re:run(L, "^        version: *([0-9]+)", [{capture, all_but_first, list}]),
                  re:run(L, "^        encodings: *\\[(.*)\\]", [{capture, all_but_first, list}]),
                  Msgs} of
                {{match, [V]}, _, [M | Ms]} -> [M#{version => list_to_integer(V)} | Ms];
                {_, {match, [E]}, [M | Ms]} ->
                    Encs = [list_to_atom(string:trim(X)) || X <- string:split(E, ",", all)],
                    [M#{encodings => Encs} | Ms];
                _ -> Msgs
            end
    end.

read_files(Dir, Dirs, #{name := Name, encodings := Encs}) ->
    maps:from_list(
      [{Enc, case file:read_file(filename:join([Dir, maps:get(Enc, Dirs, atom_to_list(Enc)),
                                                Name])) of
                 {ok, B} -> B;
                 {error, E} -> throw({setup, flat("cannot read ~s ~s: ~p", [Enc, Name, E])})
             end} || Enc <- Encs, lists:member(Enc, [pretty, compact, ber, aper])]).

%% fnmatch-style glob (* ? [...]) as an anchored regular expression.
glob_re(undefined) -> undefined;
glob_re(G) ->
    {ok, Re} = re:compile("^" ++ glob_to_re(G) ++ "$"),
    Re.

glob_to_re([]) -> [];
glob_to_re([$* | T]) -> ".*" ++ glob_to_re(T);
glob_to_re([$? | T]) -> "." ++ glob_to_re(T);
glob_to_re([$[, $! | T]) -> "[^" ++ glob_to_re_class(T);
glob_to_re([$[ | T]) -> "[" ++ glob_to_re_class(T);
glob_to_re([C | T]) ->
    case lists:member(C, ".^$+(){}|\\") of
        true -> [$\\, C | glob_to_re(T)];
        false -> [C | glob_to_re(T)]
    end.

glob_to_re_class([$] | T]) -> "]" ++ glob_to_re(T);
glob_to_re_class([C | T]) -> [C | glob_to_re_class(T)];
glob_to_re_class([]) -> [].

matches(undefined, _) -> true;
matches(Re, N) -> re:run(N, Re) =/= nomatch.

%% ---------------------------------------------------------------------------
%% host details

host(Flex) ->
    application:load(megaco),
    application:load(asn1),
    Vsn = fun(App) ->
                  case application:get_key(App, vsn) of
                      {ok, V} -> V;
                      _ -> "unknown"
                  end
          end,
    FlexStr = case Flex of
                  {ok, P} when is_tuple(P) -> flat("reentrant, ~b ports", [tuple_size(P)]);
                  {ok, _} -> "non-reentrant, 1 port";
                  {error, Why} -> "unavailable: " ++ Why
              end,
    [{"cpu", cpu_model()},
     {"cpus", integer_to_list(erlang:system_info(logical_processors_online))},
     {"os", os_string()},
     {"loadavg", loadavg()},
     {"otp", erlang:system_info(otp_release)},
     {"erts", erlang:system_info(version)},
     {"megaco", Vsn(megaco)},
     {"asn1", Vsn(asn1)},
     {"flex_scanner", FlexStr},
     {"schedulers", integer_to_list(erlang:system_info(schedulers_online))}].

cpu_model() ->
    case file:read_file("/proc/cpuinfo") of
        {ok, B} ->
            case re:run(B, "^model name\\s*:\\s*(.*)$", [multiline, {capture, all_but_first, list}]) of
                {match, [M]} -> M;
                nomatch -> "unknown"
            end;
        _ -> "unknown"
    end.

loadavg() ->
    case file:read_file("/proc/loadavg") of
        {ok, B} ->
            [A, B5, C | _] = string:lexemes(binary_to_list(B), " "),
            flat("~s ~s ~s (at start)", [A, B5, C]);
        _ -> "unknown"
    end.

os_string() ->
    {Fam, Name} = os:type(),
    Rel = case os:version() of
              {A, B, C} -> flat("~b.~b.~b", [A, B, C]);
              S -> S
          end,
    flat("~s/~s ~s", [Fam, Name, Rel]).

%% ---------------------------------------------------------------------------
%% output: the JSON of megaco-bench --format json, or a table

label(Codec, "") -> atom_to_list(Codec);
label(Codec, Config) -> flat("~s [~s]", [Codec, Config]).

json(#{host := Host, corpus := Dir, set := Set, glob := Glob, messages := N,
       min_time := MinTime, repeat := Repeat, rows := Rows}) ->
    HostJ = [[jstr(K), ": ", jstr(V)] || {K, V} <- Host],
    RowsJ = [json_row(R) || R <- Rows],
    ["{\n",
     "  \"tool\": \"megaco-bench.escript\",\n",
     "  \"implementation\": \"erlang\",\n",
     "  \"host\": {", lists:join(", ", HostJ), "},\n",
     "  \"corpus\": ", jstr(Dir), ",\n",
     "  \"set\": ", jstr(Set), ",\n",
     "  \"messages_glob\": ", jstr(glob_str(Glob)), ",\n",
     "  \"messages\": ", integer_to_list(N), ",\n",
     "  \"min_time_s\": ", fmt(MinTime, 6), ",\n",
     "  \"repeat\": ", integer_to_list(Repeat), ",\n",
     "  \"threads\": 1,\n",
     "  \"rows\": [\n    ", lists:join(",\n    ", RowsJ), "\n  ]\n}\n"].

json_row(#{status := St} = R) ->
    Ok = St =:= ok,
    Num = fun(K, Scale, D) ->
                  case Ok of
                      true -> fmt(maps:get(K, R) / Scale, D);
                      false -> "null"
                  end
          end,
    ["{\"impl\": \"erlang\", \"codec\": ", jstr(maps:get(codec, R)),
     ", \"config\": ", jstr(maps:get(config, R)),
     ", \"status\": ", jstr(atom_to_list(St)),
     ", \"error\": ", jstr(maps:get(error, R)),
     ", \"messages\": ", integer_to_list(maps:get(messages, R)),
     ", \"size\": ", Num(size, 1, 2),
     ", \"encode_us\": ", Num(encode_ns, 1000, 3),
     ", \"decode_us\": ", Num(decode_ns, 1000, 3),
     ", \"total_us\": ", Num(total_ns, 1000, 3),
     ", \"msgs_per_s\": ", Num(msgs_per_s, 1, 0),
     ", \"threads\": 1, \"mt_msgs_per_s\": null, \"speedup\": null}"].

fmt(X, D) -> float_to_list(float(X), [{decimals, D}]).

jstr(S) ->
    [$", [esc(C) || C <- unicode:characters_to_list(iolist_to_binary(S))], $"].

esc($") -> "\\\"";
esc($\\) -> "\\\\";
esc($\n) -> "\\n";
esc(C) when C < 32 -> io_lib:format("\\u~4.16.0b", [C]);
esc(C) -> unicode:characters_to_binary([C]).

table(#{host := Host, corpus := Dir, set := Set, messages := N, min_time := MinTime,
        rows := Rows}) ->
    [[io_lib:format("# ~-12s ~s~n", [K, V]) || {K, V} <- Host],
     io_lib:format("# corpus       ~s, set ~s (~b messages), min-time ~s s~n",
                   [Dir, Set, N, float_to_list(float(MinTime), [short])]),
     io_lib:format("~-26s ~5s ~8s ~10s ~10s ~10s ~11s~n",
                   ["codec and config", "msgs", "size B", "encode us", "decode us",
                    "total us", "msgs/s"]),
     [table_row(R) || R <- Rows]].

table_row(#{status := ok} = R) ->
    io_lib:format("~-26s ~5b ~8.1f ~10.3f ~10.3f ~10.3f ~11b~n",
                  [label(list_to_atom(maps:get(codec, R)), maps:get(config, R)),
                   maps:get(messages, R), float(maps:get(size, R)),
                   maps:get(encode_ns, R) / 1000, maps:get(decode_ns, R) / 1000,
                   maps:get(total_ns, R) / 1000, round(maps:get(msgs_per_s, R))]);
table_row(#{status := St} = R) ->
    io_lib:format("~-26s ~5b  ~s: ~s~n",
                  [label(list_to_atom(maps:get(codec, R)), maps:get(config, R)),
                   maps:get(messages, R), St, maps:get(error, R)]).

flat(Fmt, Args) -> lists:flatten(io_lib:format(Fmt, Args)).
