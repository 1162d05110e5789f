#!/usr/bin/env escript
%% -*- erlang -*-
%%
%% Interoperability helper for libmegaco's test suite: decodes messages with
%% Erlang/OTP's codecs and compares the abstract values, so a test can check
%% that what libmegaco encodes means the same as a reference vector even where
%% the bytes may legitimately differ.
%%
%% Usage:
%%   megaco-peer.escript [OPTIONS] decode-compare ENC OURS_FILE REF_FILE
%%   megaco-peer.escript [OPTIONS] decode-compare-dir ENC OURS_DIR REF_DIR
%%                                    [ENC OURS_DIR REF_DIR]...
%%   megaco-peer.escript [OPTIONS] decode ENC FILE
%%
%% ENC is pretty | compact | ber | per | aper.
%%   pretty, compact: Erlang megaco's text decoders (version from MEGACO/n).
%%   ber:  Erlang megaco's BER decoder (version found by megaco_ber_encoder).
%%   per:  X.691 UNALIGNED PER.  Erlang megaco's own "per" codec is ALIGNED
%%         and not comparable, so the H.248.1 v3 ASN.1 module (and the v1
%%         module, for version 1 messages: the two differ in PER) is compiled
%%         with asn1ct [uper, legacy_erlang_types] (megaco's record layout)
%%         and its decode('MegacoMessage', Bin) is used on both files.
%%   aper: X.691 ALIGNED PER: Erlang megaco's own per codec
%%         (megaco_per_encoder), version found first, as its stack reads.
%%
%% Options:
%%   --asn1 PATH   the v3 ASN.1 module, for per (default: $MEGACO_ASN1, else
%%                 <repo>/asn1/MEDIA-GATEWAY-CONTROL-v3.asn if present, else
%%                 <repo>/../shared/spec/MEDIA-GATEWAY-CONTROL-v3.asn)
%%   --cache DIR   where the compiled per module is kept (default:
%%                 $MEGACO_PEER_CACHE, else the user cache dir, else /tmp)
%%   --strict      compare records exactly; by default the items of an
%%                 AuditDescriptor's auditToken (a named-bit BIT STRING, so
%%                 unordered) are sorted first, because Erlang's text parser
%%                 returns them in reverse text order
%%   -v            in -dir mode, print both records for each mismatch
%%
%% Exit status: 0 all equal; 1 a mismatch or a file that does not decode;
%% 2 usage or set-up error.  decode-compare-dir compares every regular file
%% in OURS_DIR with the same name in REF_DIR, prints one line per mismatch
%% and "OURS_DIR: N compared, M mismatched", for each triple in turn (one
%% Erlang VM for all of them), and finally the totals as "N compared, M
%% mismatched".

-mode(compile).

main(Args) ->
    try run(parse_opts(Args, #{strict => false, verbose => false}))
    catch
        throw:{usage, Msg} ->
            io:format(standard_error, "megaco-peer: ~s~n~s", [Msg, usage()]),
            halt(2);
        throw:{setup, Msg} ->
            io:format(standard_error, "megaco-peer: ~s~n", [Msg]),
            halt(2)
    end.

usage() ->
    "usage: megaco-peer.escript [--asn1 PATH] [--cache DIR] [--strict] [-v]\n"
    "         decode-compare ENC OURS_FILE REF_FILE\n"
    "       | decode-compare-dir ENC OURS_DIR REF_DIR [ENC OURS_DIR REF_DIR]...\n"
    "       | decode ENC FILE\n"
    "       ENC: pretty | compact | ber | per | aper\n".

parse_opts(["--asn1", P | T], O) -> parse_opts(T, O#{asn1 => P});
parse_opts(["--cache", P | T], O) -> parse_opts(T, O#{cache => P});
parse_opts(["--strict" | T], O) -> parse_opts(T, O#{strict => true});
parse_opts(["-v" | T], O) -> parse_opts(T, O#{verbose => true});
parse_opts(["--" ++ _ = X | _], _) -> throw({usage, "unknown option " ++ X});
parse_opts(Rest, O) -> O#{args => Rest}.

run(#{args := ["decode-compare", Enc, Ours, Ref]} = O) ->
    Dec = decoder(enc(Enc), O),
    case compare_files(Dec, Ours, Ref, O) of
        equal -> halt(0);
        {mismatch, Why, A, B} ->
            io:format("~s: ~s~n--- ~s:~n~p~n--- ~s:~n~p~n", [Ours, Why, Ours, A, Ref, B]),
            halt(1);
        {error, Why} ->
            io:format("~s~n", [Why]),
            halt(1)
    end;
run(#{args := ["decode-compare-dir" | Triples]} = O) when Triples =/= [],
                                                          length(Triples) rem 3 =:= 0 ->
    {N, Bad} = compare_dirs(Triples, O, 0, 0),
    io:format("~b compared, ~b mismatched~n", [N, Bad]),
    halt(case Bad of 0 -> 0; _ -> 1 end);
run(#{args := ["decode", Enc, File]} = O) ->
    Dec = decoder(enc(Enc), O),
    case decode_file(Dec, File) of
        {ok, V} -> io:format("~p~n", [V]), halt(0);
        {error, Why} -> io:format("~s~n", [Why]), halt(1)
    end;
run(_) ->
    throw({usage, "bad arguments"}).

compare_dirs([], _O, N, Bad) -> {N, Bad};
compare_dirs([Enc, OursDir, RefDir | More], O, N0, Bad0) ->
    {N, Bad} = compare_dir(Enc, OursDir, RefDir, O),
    io:format("~s: ~b compared, ~b mismatched~n", [OursDir, N, Bad]),
    compare_dirs(More, O, N0 + N, Bad0 + Bad).

compare_dir(Enc, OursDir, RefDir, #{verbose := Verbose} = O) ->
    Dec = decoder(enc(Enc), O),
    Files = case file:list_dir(OursDir) of
                {ok, Fs} -> lists:sort([F || F <- Fs, hd(F) =/= $.,
                                            filelib:is_regular(filename:join(OursDir, F))]);
                {error, E} -> throw({setup, io_lib:format("~s: ~p", [OursDir, E])})
            end,
    Bad = lists:foldl(
            fun(F, N) ->
                    Ours = filename:join(OursDir, F),
                    Ref = filename:join(RefDir, F),
                    case compare_files(Dec, Ours, Ref, O) of
                        equal -> N;
                        {mismatch, Why, A, B} ->
                            io:format("MISMATCH ~s: ~s~n", [Ours, Why]),
                            Verbose andalso io:format("--- ours:~n~p~n--- ref:~n~p~n", [A, B]),
                            N + 1;
                        {error, Why} ->
                            io:format("MISMATCH ~s: ~s~n", [Ours, Why]),
                            N + 1
                    end
            end, 0, Files),
    {length(Files), Bad}.

enc("pretty") -> pretty;
enc("compact") -> compact;
enc("ber") -> ber;
enc("per") -> per;
enc("aper") -> aper;
enc(X) -> throw({usage, "unknown encoding " ++ X}).

%% ---------------------------------------------------------------------------
%% comparison

compare_files(Dec, Ours, Ref, #{strict := Strict}) ->
    case {decode_file(Dec, Ours), decode_file(Dec, Ref)} of
        {{ok, A}, {ok, B}} ->
            {A1, B1} = case Strict of
                           true -> {A, B};
                           false -> {normalize(A), normalize(B)}
                       end,
            case A1 =:= B1 of
                true -> equal;
                false -> {mismatch, "records differ at " ++ first_diff(A1, B1), A, B}
            end;
        {{error, Why}, _} -> {error, "ours does not decode: " ++ Why};
        {_, {error, Why}} -> {error, "reference does not decode: " ++ Why}
    end.

%% A short description of where two terms first differ: a path of record
%% names / list indexes, then both subterms (abbreviated).
first_diff(A, B) -> first_diff(A, B, []).

first_diff(A, B, Path) when is_tuple(A), is_tuple(B), tuple_size(A) =:= tuple_size(B),
                            tuple_size(A) > 0, element(1, A) =:= element(1, B) ->
    Label = case element(1, A) of
                Atom when is_atom(Atom) -> atom_to_list(Atom);
                _ -> "{}"
            end,
    diff_elems(tl(tuple_to_list(A)), tl(tuple_to_list(B)), 2, [Label | Path], A, B);
first_diff(A, B, Path) when is_list(A), is_list(B), length(A) =:= length(B) ->
    case io_lib:printable_list(A) andalso io_lib:printable_list(B) of
        true -> show(A, B, Path);
        false -> diff_elems(A, B, 1, Path, A, B)
    end;
first_diff(A, B, Path) ->
    show(A, B, Path).

diff_elems([X | Xs], [Y | Ys], I, Path, A, B) ->
    case X =:= Y of
        true -> diff_elems(Xs, Ys, I + 1, Path, A, B);
        false -> first_diff(X, Y, ["#" ++ integer_to_list(I) | Path])
    end;
diff_elems(_, _, _, Path, A, B) ->
    show(A, B, Path).

show(A, B, Path) ->
    lists:flatten(io_lib:format("~s: ~0P vs ~0P",
                                [lists:join("/", lists:reverse(Path)), A, 12, B, 12])).

%% AuditDescriptor.auditToken is a BIT STRING of named bits, so its items have
%% no order; Erlang's text parser yields them in reverse text order and its
%% binary decoders in bit order.  Sort them so that only meaning is compared.
normalize({'AuditDescriptor', Tokens, _} = T) when is_list(Tokens) ->
    setelement(2, normalize_tuple(T), lists:sort(Tokens));
normalize({'AuditDescriptor', Tokens} = T) when is_list(Tokens) ->
    setelement(2, normalize_tuple(T), lists:sort(Tokens));
normalize(T) when is_tuple(T) -> normalize_tuple(T);
normalize(L) when is_list(L) -> [normalize(X) || X <- L];
normalize(X) -> X.

normalize_tuple(T) -> list_to_tuple([normalize(X) || X <- tuple_to_list(T)]).

%% ---------------------------------------------------------------------------
%% decoders

decode_file(Dec, File) ->
    case file:read_file(File) of
        {ok, Bin} ->
            try Dec(Bin) of
                {ok, V} -> {ok, V};
                {error, R} -> {error, flat("~0P", [R, 15])};
                Other -> {error, flat("~0P", [Other, 15])}
            catch
                C:E -> {error, flat("~p:~0P", [C, E, 15])}
            end;
        {error, E} -> {error, flat("~s: ~p", [File, E])}
    end.

decoder(pretty, _) ->
    fun(Bin) -> megaco_pretty_text_encoder:decode_message([], Bin) end;
decoder(compact, _) ->
    fun(Bin) -> megaco_compact_text_encoder:decode_message([], Bin) end;
decoder(ber, _) ->
    %% decode_message/2 would assume version 1; find the real one first.
    fun(Bin) ->
            case megaco_ber_encoder:version_of([], Bin) of
                {ok, V} -> megaco_ber_encoder:decode_message([], V, Bin);
                Error -> Error
            end
    end;
decoder(per, O) ->
    V1 = uper_module(O, 1),
    V3 = uper_module(O, 3),
    fun(Bin) ->
            case uper_version(Bin) of
                1 -> V1:decode('MegacoMessage', Bin);
                _ -> V3:decode('MegacoMessage', Bin)
            end
    end;
decoder(aper, _) ->
    %% As Erlang's stack reads it: version first, then that version's module.
    fun(Bin) ->
            case megaco_per_encoder:version_of([], Bin) of
                {ok, V} -> megaco_per_encoder:decode_message([], V, Bin);
                Error -> Error
            end
    end.

%% Message.version of unaligned PER: after authHeader's presence bit (and the
%% header: 4 + 4 octets, a 5-bit length of 12..32 octets and those octets)
%% and Message's extension bit, 7 bits.
uper_version(<<0:1, _:1, V:7, _/bitstring>>) -> V;
uper_version(<<1:1, _:64, L:5, Rest/bitstring>>) ->
    Skip = (L + 12) * 8,
    case Rest of
        <<_:Skip, _:1, V:7, _/bitstring>> -> V;
        _ -> 0
    end;
uper_version(_) -> 0.

%% Compiles (once; the result is cached by the spec's checksum) and loads the
%% vN module for unaligned PER: v3, and v1 for version 1 messages (whose
%% EventsDescriptor.requestID is mandatory, so PER differs).
uper_module(O, N) ->
    Spec = version_path(asn1_path(O), N),
    {ok, Text} = file:read_file(Spec),
    Key = lists:flatten([io_lib:format("~2.16.0b", [X]) || <<X>> <= erlang:md5(Text)]),
    Base = cache_base(O),
    Dir = filename:join(Base, "uper-" ++ erlang:system_info(otp_release) ++ "-" ++ Key),
    AsnName = "MEDIA-GATEWAY-CONTROL-v" ++ integer_to_list(N),
    Mod = list_to_atom(AsnName),
    case filelib:is_regular(filename:join(Dir, AsnName ++ ".beam")) of
        true -> ok;
        false -> compile_uper(Text, AsnName, Base, Dir)
    end,
    code:add_patha(Dir),
    case code:ensure_loaded(Mod) of
        {module, Mod} -> Mod;
        Err -> throw({setup, flat("cannot load ~s from ~s: ~p", [AsnName, Dir, Err])})
    end.

%% Compile in a private directory and rename it into place, so concurrent
%% test processes never see a half-written module.
compile_uper(Text, AsnName, Base, Dir) ->
    Tmp = filename:join(Base, flat("tmp-~s-~b", [os:getpid(),
                                                 erlang:unique_integer([positive])])),
    ok = filelib:ensure_dir(filename:join(Tmp, "x")),
    Src = filename:join(Tmp, AsnName ++ ".asn"),
    ok = file:write_file(Src, Text),
    %% Record layout as in megaco's own binary codecs (legacy_erlang_types).
    case asn1ct:compile(Src, [uper, legacy_erlang_types, {outdir, Tmp}, {i, Tmp}]) of
        ok -> ok;
        E1 -> throw({setup, flat("asn1ct:compile(~s) failed: ~p", [Src, E1])})
    end,
    case file:rename(Tmp, Dir) of
        ok -> ok;
        {error, _} -> rm_rf(Tmp)   % another process won the race
    end.

%% The vN module beside the v3 one (same directory, same naming).
version_path(V3Path, 3) -> V3Path;
version_path(V3Path, N) ->
    P = filename:join(filename:dirname(V3Path),
                      "MEDIA-GATEWAY-CONTROL-v" ++ integer_to_list(N) ++ ".asn"),
    filelib:is_regular(P) orelse throw({setup, "no such file: " ++ P}),
    P.

asn1_path(#{asn1 := Path}) ->
    filelib:is_regular(Path) orelse throw({setup, "no such file: " ++ Path}),
    Path;
asn1_path(_) ->
    Top = filename:dirname(filename:dirname(filename:dirname(
                                              filename:absname(escript:script_name())))),
    Candidates = [os:getenv("MEGACO_ASN1"),
                  filename:join([Top, "asn1", "MEDIA-GATEWAY-CONTROL-v3.asn"]),
                  filename:join([Top, "..", "shared", "spec", "MEDIA-GATEWAY-CONTROL-v3.asn"])],
    case [P || P <- Candidates, is_list(P), P =/= "", filelib:is_regular(P)] of
        [P | _] -> P;
        [] -> throw({setup, "v3 ASN.1 module not found; use --asn1 PATH or MEGACO_ASN1"})
    end.

cache_base(O) ->
    Candidates = [maps:get(cache, O, false),
                  os:getenv("MEGACO_PEER_CACHE"),
                  catch filename:basedir(user_cache, "libmegaco-peer"),
                  filename:join(tmp_dir(), "libmegaco-peer")],
    pick_writable([C || C <- Candidates, is_list(C), C =/= ""]).

pick_writable([D | Ds]) ->
    case filelib:ensure_dir(filename:join(D, "x")) of
        ok -> D;
        {error, _} -> pick_writable(Ds)
    end;
pick_writable([]) ->
    throw({setup, "no writable cache directory; use --cache DIR"}).

tmp_dir() ->
    case os:getenv("TMPDIR") of
        false -> "/tmp";
        "" -> "/tmp";
        T -> T
    end.

rm_rf(Dir) ->
    {ok, Fs} = file:list_dir(Dir),
    [file:delete(filename:join(Dir, F)) || F <- Fs],
    file:del_dir(Dir).

flat(Fmt, Args) -> lists:flatten(io_lib:format(Fmt, Args)).
