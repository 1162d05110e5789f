#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
%%
%% Builds libmegaco's message corpus (corpus/) from the reference material:
%% the 149 messages of time_test.msgs as pretty text, re-encoded by Erlang/OTP
%% megaco as compact text, BER and aligned PER, plus the unaligned PER vectors
%% shipped beside them (for version 1 messages where the v1 ASN.1 module gives
%% other bytes than the v3 one, Erlang's unaligned PER of the v1 module
%% instead); and the RFC 3525 Appendix I examples (extracted by
%% tools/extract-rfc-examples.py), checked against Erlang's text decoder.
%% Writes corpus/manifest.yaml, which the C test suite reads.
%%
%% Usage: escript tools/gen-corpus.escript [CORPUS_SOURCE_DIR [OUT_DIR]]
%% Defaults, relative to the repository top: ../shared/corpus-source, corpus.
%% The RFC is read from CORPUS_SOURCE_DIR/../spec/rfc3525.txt.
%% Idempotent: stale files in the generated directories are removed.
%% Exit status 0 on success; 1 if any time_test message fails to decode or
%% encode, or an input is missing.

-mode(compile).

-define(ENCODINGS, [pretty, compact, ber, per, aper]).

main(Args) ->
    T0 = erlang:monotonic_time(millisecond),
    Top = repo_top(),
    {Src, Out} =
        case Args of
            [] -> {filename:join([Top, "..", "shared", "corpus-source"]),
                   filename:join(Top, "corpus")};
            [S] -> {S, filename:join(Top, "corpus")};
            [S, O] -> {S, O};
            _ -> usage()
        end,
    Spec = filename:join([Src, "..", "spec"]),
    TimeTest = time_test(Src, Out),
    Rfc = rfc3525(Top, Spec, Out),
    copy(filename:join(Src, "time_test.msgs.license"),
         filename:join(Out, "LICENSE.time_test")),
    write_manifest(Out, TimeTest, Rfc),
    Failed = [N || {N, _, _, failed} <- TimeTest],
    Mism = [{N, Note} || {N, _, Note, ok} <- TimeTest, Note =/= ""],
    io:format("time_test: ~b messages, ~b failed, ~b with notes~n",
              [length(TimeTest), length(Failed), length(Mism)]),
    [io:format("  note ~s: ~s~n", [N, Note]) || {N, Note} <- Mism],
    RfcOk = [N || {N, _, true, _, _} <- Rfc],
    io:format("rfc3525: ~b messages, ~b decode with Erlang (~s)~n",
              [length(Rfc), length(RfcOk), lists:join(" ", RfcOk)]),
    io:format("done in ~b ms~n", [erlang:monotonic_time(millisecond) - T0]),
    case Failed of
        [] -> halt(0);
        _ ->
            io:format(standard_error,
                      "~n*** FAILED: ~b time_test message(s): ~s ***~n",
                      [length(Failed), lists:join(" ", Failed)]),
            halt(1)
    end.

usage() ->
    io:format(standard_error,
              "usage: gen-corpus.escript [CORPUS_SOURCE_DIR [OUT_DIR]]~n", []),
    halt(2).

repo_top() ->
    Script = filename:absname(escript:script_name()),
    filename:dirname(filename:dirname(Script)).

%% ---------------------------------------------------------------------------
%% time_test set

%% Returns [{Name, Version, Note, ok | failed}].
time_test(Src, Out) ->
    MsgFile = filename:join(Src, "time_test.msgs"),
    Msgs = case file:consult(MsgFile) of
               {ok, [{pretty, L}]} -> L;
               Other -> die("cannot read ~s: ~p", [MsgFile, Other])
           end,
    Names = [atom_to_list(N) || {N, _} <- Msgs],
    [prepare_dir(filename:join(Out, atom_to_list(E)), Names) || E <- ?ENCODINGS],
    Agreement = read_agreement(filename:join([Src, "uper", "AGREEMENT.tsv"])),
    Uper1 = uper_v1_module(),
    [one_time_test(Src, Out, atom_to_list(N), Bin, Agreement, Uper1) || {N, Bin} <- Msgs].

one_time_test(Src, Out, Name, Pretty, Agreement, Uper1) ->
    try
        write(Out, "pretty", Name, Pretty),
        Msg = ok_or_fail(Name, "pretty decode",
                         megaco_pretty_text_encoder:decode_message([], Pretty)),
        V = msg_version(Msg),
        V = header_version(Pretty),
        Compact = iolist_to_binary(
                    ok_or_fail(Name, "compact encode",
                               megaco_compact_text_encoder:encode_message([], Msg))),
        Ber = iolist_to_binary(
                ok_or_fail(Name, "ber encode",
                           megaco_ber_encoder:encode_message([], Msg))),
        {Aper, AperNote} = aper(Name, V, Msg, Ber),
        {Uper, PerNote} = uper(Src, Name, V, Ber, Agreement, Uper1),
        write(Out, "compact", Name, Compact),
        write(Out, "ber", Name, Ber),
        write(Out, "aper", Name, Aper),
        write(Out, "per", Name, Uper),
        %% Round trips: each encoding must decode back to the pretty record.
        FromBer = ok_or_fail(Name, "ber decode",
                             megaco_ber_encoder:decode_message([], V, Ber)),
        FromCompact = ok_or_fail(Name, "compact decode",
                                 megaco_compact_text_encoder:decode_message([], Compact)),
        Notes = [compare_notes([{"ber", FromBer}, {"compact", FromCompact}], Msg),
                 PerNote, AperNote],
        {Name, V, join_notes(Notes), ok}
    catch
        throw:{fail, What} ->
            io:format(standard_error, "*** ~s: ~s~n", [Name, What]),
            {Name, 0, "", failed};
        C:E:St ->
            io:format(standard_error, "*** ~s: ~p:~p~n  ~p~n", [Name, C, E, St]),
            {Name, 0, "", failed}
    end.

%% The aligned PER vector: what Erlang's stack sends, megaco_per_encoder with
%% the ASN.1 module of the message's version. The v1 module differs from the
%% v3 one in a way PER sees (EventsDescriptor.requestID is mandatory in v1:
%% no presence bit); where that changes the bytes, the note says where they
%% would differ under the v3 module. Fails unless the vector decodes back
%% (with the same module) to the pretty record, and unless the record of the
%% BER vector under the v3 module re-encodes to the same BER.
aper(Name, V, Msg, Ber) ->
    M3 = ok_or_fail(Name, "ber decode (v3 module)",
                    megaco_ber_encoder:decode_message([], 3, Ber)),
    Ber3 = iolist_to_binary(ok_or_fail(Name, "ber encode (v3 module)",
                                       megaco_ber_encoder:encode_message([], 3, M3))),
    Ber3 =:= Ber orelse throw({fail, "ber vector differs when re-encoded with the v3 module"}),
    Aper = iolist_to_binary(ok_or_fail(Name, "per encode",
                                       megaco_per_encoder:encode_message([], V, Msg))),
    Back = ok_or_fail(Name, "per decode", megaco_per_encoder:decode_message([], V, Aper)),
    compare(Msg, Back) =/= differ orelse
        throw({fail, "aper vector does not decode to the record it encodes"}),
    Aper3 = iolist_to_binary(ok_or_fail(Name, "per encode (v3 module)",
                                        megaco_per_encoder:encode_message([], 3, M3))),
    {Aper, module_note("aper", V, Aper, Aper3)}.

%% The unaligned PER vector: corpus-source's (the v3 module's bytes), except
%% for a version 1 message whose v1-module encoding differs: then Erlang's
%% uper build of the v1 module, applied to the BER vector's value.
uper(Src, Name, V, Ber, Agreement, Uper1) ->
    File = filename:join([Src, "uper", Name]),
    Shared = case file:read_file(File) of
                 {ok, B} -> B;
                 Error -> throw({fail, flat("read ~s: ~p", [File, Error])})
             end,
    case V of
        1 ->
            Val = ok_or_fail(Name, "ber decode (v1 module)",
                             megaco_ber_media_gateway_control_v1:decode('MegacoMessage', Ber)),
            U1 = iolist_to_binary(ok_or_fail(Name, "uper encode (v1 module)",
                                             Uper1:encode('MegacoMessage', Val))),
            case U1 of
                Shared -> {Shared, per_note(Name, Agreement)};
                _ -> {U1, module_note("per", V, U1, Shared)}
            end;
        _ -> {Shared, per_note(Name, Agreement)}
    end.

module_note(_Enc, _V, Same, Same) -> "";
module_note(Enc, V, Bytes, V3) ->
    At = first_difference(Bytes, V3, 0),
    flat("~s vector follows the v~b module (EventsDescriptor.requestID mandatory); "
         "the v3 module gives ~b bytes, first different at offset ~b: ~s instead of ~s "
         "(docs/aper.md)", [Enc, V, byte_size(V3), At, hex_at(V3, At), hex_at(Bytes, At)]).

%% Erlang's unaligned PER of the v1 module (megaco ships only BER and aligned
%% PER builds): compiled from asn1/ into a temporary directory, loaded, removed.
uper_v1_module() ->
    Top = repo_top(),
    Spec = filename:join([Top, "asn1", "MEDIA-GATEWAY-CONTROL-v1.asn"]),
    Tmp = filename:join(tmp_dir(), flat("gen-corpus-uper1-~s", [os:getpid()])),
    ok = filelib:ensure_dir(filename:join(Tmp, "x")),
    Src = filename:join(Tmp, "MEDIA-GATEWAY-CONTROL-v1.asn"),
    {ok, _} = file:copy(Spec, Src),
    %% Record layout as in megaco's own binary codecs (legacy_erlang_types).
    ok = asn1ct:compile(Src, [uper, legacy_erlang_types, {outdir, Tmp}, {i, Tmp}]),
    Mod = 'MEDIA-GATEWAY-CONTROL-v1',
    {ok, Beam} = file:read_file(filename:join(Tmp, atom_to_list(Mod) ++ ".beam")),
    {module, Mod} = code:load_binary(Mod, "uper-v1", Beam),
    {ok, Files} = file:list_dir(Tmp),
    [ok = file:delete(filename:join(Tmp, F)) || F <- Files],
    ok = file:del_dir(Tmp),
    Mod.

tmp_dir() ->
    case os:getenv("TMPDIR") of
        false -> "/tmp";
        "" -> "/tmp";
        T -> T
    end.

first_difference(<<X, A/binary>>, <<X, B/binary>>, N) -> first_difference(A, B, N + 1);
first_difference(_, _, N) -> N.

hex_at(Bin, At) when At < byte_size(Bin) -> flat("~2.16.0B", [binary:at(Bin, At)]);
hex_at(_, _) -> "end".

%% Compares the records decoded from each re-encoding with the reference
%% record; returns a note naming the encodings that differ, and how.
compare_notes(Decoded, Ref) ->
    Cmp = [{Enc, compare(Ref, Got)} || {Enc, Got} <- Decoded],
    Order = [Enc || {Enc, order} <- Cmp],
    Differ = [Enc || {Enc, differ} <- Cmp],
    _ = Differ =:= [] orelse io:format(standard_error,
                                       "*** mismatch (~s round trip):~n~p~n",
                                       [lists:join("+", Differ), Ref]),
    join_notes([case Order of
                    [] -> "";
                    _ -> lists:join(" and ", Order) ++ " round trip decodes to the pretty "
                             "record only up to the order of the AuditDescriptor "
                             "auditToken items (a named-bit BIT STRING in ASN.1; "
                             "Erlang's text parser returns them in reverse text order)"
                end,
                case Differ of
                    [] -> "";
                    _ -> lists:join(" and ", Differ) ++
                             " round trip does NOT decode to the pretty record"
                end]).

compare(Ref, Ref) -> equal;
compare(Ref, Got) ->
    case normalize(Ref) =:= normalize(Got) of
        true -> order;
        false -> differ
    end.

per_note(Name, Agreement) ->
    case lists:keyfind(Name, 1, Agreement) of
        {_, _, "-"} -> "";
        {_, Agree, Disagree} ->
            "per vector: " ++ Agree ++ " agree, " ++ Disagree
                ++ " differs (corpus-source/uper/AGREEMENT.tsv)";
        false -> "per vector missing from AGREEMENT.tsv"
    end.

read_agreement(File) ->
    case file:read_file(File) of
        {ok, Bin} ->
            Lines = tl(string:split(string:trim(Bin), "\n", all)),
            [begin
                 [N, _Bytes, A, D] = string:split(string:trim(L, trailing, "\r"),
                                                  "\t", all),
                 {binary_to_list(N), binary_to_list(A), binary_to_list(D)}
             end || L <- Lines];
        Error -> die("cannot read ~s: ~p", [File, Error])
    end.

%% ---------------------------------------------------------------------------
%% rfc3525 set

%% Returns [{Id, Version, ErlangDecodes, Notes, {Step, RfcLine, Valid}}].
rfc3525(Top, Spec, Out) ->
    Dir = filename:join(Out, "rfc3525"),
    CompactDir = filename:join(Out, "rfc3525-compact"),
    Index = extract_rfc(Top, filename:join(Spec, "rfc3525.txt"), Dir),
    Verdicts = read_verdicts(filename:join([Top, "tools", "rfc3525-notes.tsv"])),
    prepare_dir(CompactDir, []),
    [one_rfc(Dir, CompactDir, Id, Step, Line, Verdicts) || {Id, Step, Line} <- Index].

one_rfc(Dir, CompactDir, Id, Step, Line, Verdicts) ->
    {ok, Bin} = file:read_file(filename:join(Dir, Id)),
    V = header_version(Bin),
    {Valid, Note} = case lists:keyfind(Id, 1, Verdicts) of
                        {_, Va, No} -> {Va, No};
                        false ->
                            io:format(standard_error,
                                      "warning: no verdict for ~s in rfc3525-notes.tsv~n",
                                      [Id]),
                            {"null", ""}
                    end,
    case safe_decode(Bin) of
        {ok, Msg} ->
            Compact = iolist_to_binary(
                        element(2, {ok, _} = megaco_compact_text_encoder:encode_message([], Msg))),
            ok = file:write_file(filename:join(CompactDir, Id), Compact),
            {ok, Back} = megaco_compact_text_encoder:decode_message([], Compact),
            RoundTrip = compare_notes([{"compact", Back}], Msg),
            {Id, V, true, join_notes([Note, RoundTrip]), {Step, Line, Valid}};
        {error, Why} ->
            {Id, V, false, join_notes([Note, "Erlang pretty decoder: " ++ Why]),
             {Step, Line, Valid}}
    end.

safe_decode(Bin) ->
    try megaco_pretty_text_encoder:decode_message([], Bin) of
        {ok, Msg} -> {ok, Msg};
        {error, Reason} -> {error, describe_error(Reason)}
    catch
        throw:{error, R} -> {error, flat("~0p", [R])};
        C:E -> {error, flat("~p:~0p", [C, E])}
    end.

describe_error(Reason) when is_list(Reason) ->
    case proplists:get_value(reason, Reason) of
        {Line, _Mod, Parts} when is_integer(Line) ->
            flat("line ~b: ~s", [Line, lists:flatten(Parts)]);
        undefined -> flat("~0P", [Reason, 8]);
        R -> flat("~0p", [R])
    end;
describe_error(Reason) ->
    flat("~0P", [Reason, 8]).

%% Runs the extraction script (if python3 is available) and reads its index
%% (id, step, rfc line) from its standard output.
extract_rfc(Top, RfcTxt, Dir) ->
    Script = filename:join([Top, "tools", "extract-rfc-examples.py"]),
    Python = case os:find_executable("python3") of
                 false -> die("python3 not found (needed for ~s)", [Script]);
                 P -> P
             end,
    Port = open_port({spawn_executable, Python},
                     [{args, [Script, RfcTxt, Dir]}, exit_status, binary,
                      stderr_to_stdout]),
    {Status, Output} = collect(Port, []),
    Status =:= 0 orelse die("~s failed (~b):~n~s", [Script, Status, Output]),
    [_Header | Rows] = string:split(string:trim(Output), "\n", all),
    [begin
         [Id, Step, Line | _] = string:split(R, "\t", all),
         {binary_to_list(Id), binary_to_list(Step), binary_to_list(Line)}
     end || R <- Rows].

collect(Port, Acc) ->
    receive
        {Port, {data, D}} -> collect(Port, [Acc, D]);
        {Port, {exit_status, S}} -> {S, iolist_to_binary(Acc)}
    end.

read_verdicts(File) ->
    {ok, Bin} = file:read_file(File),
    Lines = [L || L <- string:split(Bin, "\n", all), L =/= <<>>,
                  binary:first(L) =/= $#],
    [case string:split(L, "\t", all) of
         [Id, Valid, Note] -> {binary_to_list(Id), binary_to_list(Valid),
                               binary_to_list(Note)};
         [Id, Valid] -> {binary_to_list(Id), binary_to_list(Valid), ""}
     end || L <- Lines].

%% ---------------------------------------------------------------------------
%% manifest

write_manifest(Out, TimeTest, Rfc) ->
    Head = ["# libmegaco message corpus; generated by tools/gen-corpus.escript"
            " \xe2\x80\x94 do not edit by hand\n",
            "sets:\n"],
    Enc = "[pretty, compact, ber, per, aper]",
    TT = ["  - name: time_test\n",
          "    source: \"Erlang/OTP megaco examples/meas/time_test.msgs (Apache-2.0)\"\n",
          "    encodings: ", Enc, "\n",
          "    dirs: {pretty: pretty, compact: compact, ber: ber, per: per, aper: aper}\n",
          "    messages:\n",
          [["      - name: ", N, "\n",
            "        version: ", integer_to_list(V), "\n",
            "        encodings: ", Enc, "\n",
            "        notes: ", yaml_str(Note), "\n"]
           || {N, V, Note, ok} <- TimeTest]],
    R = ["  - name: rfc3525\n",
         "    source: \"RFC 3525 Appendix A\"\n",
         "    encodings: [pretty, compact]\n",
         "    dirs: {pretty: rfc3525, compact: rfc3525-compact}\n",
         "    messages:\n",
         [["      - name: ", Id, "\n",
           "        version: ", integer_to_list(V), "\n",
           "        encodings: ", case Dec of true -> "[pretty, compact]";
                                          false -> "[pretty]" end, "\n",
           "        valid: ", Valid, "\n",
           "        erlang_decodes: ", atom_to_list(Dec), "\n",
           "        step: ", Step, "\n",
           "        rfc_line: ", Line, "\n",
           "        notes: ", yaml_str(Note), "\n"]
          || {Id, V, Dec, Note, {Step, Line, Valid}} <- Rfc]],
    ok = file:write_file(filename:join(Out, "manifest.yaml"), [Head, TT, R]).

%% A YAML double-quoted scalar (notes are ASCII by construction).
yaml_str(S) ->
    Esc = lists:flatmap(fun($") -> "\\\"";
                           ($\\) -> "\\\\";
                           ($\n) -> "\\n";
                           ($\t) -> "\\t";
                           (C) -> [C]
                        end, lists:flatten(S)),
    [$", Esc, $"].

%% ---------------------------------------------------------------------------
%% helpers

%% AuditDescriptor.auditToken is a BIT STRING of named bits: its items have no
%% order, but Erlang's text parser returns them in reverse text order while
%% the BER decoder returns them in bit order.  Sort them before comparing.
normalize({'AuditDescriptor', Tokens, _} = T) when is_list(Tokens) ->
    setelement(2, normalize_tuple(T), lists:sort(Tokens));
normalize({'AuditDescriptor', Tokens} = T) when is_list(Tokens) ->
    setelement(2, normalize_tuple(T), lists:sort(Tokens));
normalize(T) when is_tuple(T) -> normalize_tuple(T);
normalize(L) when is_list(L) -> [normalize(X) || X <- L];
normalize(X) -> X.

normalize_tuple(T) -> list_to_tuple([normalize(X) || X <- tuple_to_list(T)]).

msg_version(MegacoMessage) ->
    %% #'MegacoMessage'{authHeader, mess = #'Message'{version, ...}}
    element(2, element(3, MegacoMessage)).

header_version(Bin) ->
    case re:run(Bin, "^\\s*(?:MEGACO|!)/([0-9]+)", [{capture, all_but_first, list},
                                                    caseless]) of
        {match, [N]} -> list_to_integer(N);
        nomatch -> 0
    end.

ok_or_fail(_Name, _What, {ok, X}) -> X;
ok_or_fail(_Name, What, Other) -> throw({fail, flat("~s: ~0P", [What, Other, 20])}).

join_notes(Notes) ->
    lists:flatten(lists:join("; ", [N || N <- Notes, N =/= ""])).

%% Create Dir and remove files in it that are not in Keep.
prepare_dir(Dir, Keep) ->
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    {ok, Files} = file:list_dir(Dir),
    [ok = file:delete(filename:join(Dir, F)) || F <- Files, not lists:member(F, Keep),
                                               filelib:is_regular(filename:join(Dir, F))],
    ok.

write(Out, Enc, Name, Bin) ->
    ok = file:write_file(filename:join([Out, Enc, Name]), Bin).

copy(From, To) ->
    case file:copy(From, To) of
        {ok, _} -> ok;
        Error -> throw({fail, flat("copy ~s: ~p", [From, Error])})
    end.

die(Fmt, Args) ->
    io:format(standard_error, "gen-corpus: " ++ Fmt ++ "~n", Args),
    halt(1).

flat(Fmt, Args) -> lists:flatten(io_lib:format(Fmt, Args)).
