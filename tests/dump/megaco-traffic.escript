#!/usr/bin/env escript
%% -*- erlang -*-
%%
%% Real Megaco traffic for megaco-dump's capture test: a media gateway and
%% a controller, both Erlang/OTP megaco users in this one VM, talk over
%% 127.0.0.1. For each RUN (transport:encoding:port, e.g. udp:text:29440),
%% the gateway sends a ServiceChange and then N requests taken from the
%% corpus; the controller answers the ServiceChange with the corpus's
%% ServiceChange reply and every other request with an error descriptor.
%% Every message either side sends goes through this module's send_message/2,
%% which writes to LOG one line per message, the transaction IDs as Erlang's
%% own decoder reads them back: "PORT KIND ID ..." (KIND request, reply,
%% pending, ack, segment-reply).
%%
%% Usage: megaco-traffic.escript CORPUS LOG N RUN...

-module(megaco_traffic).
-mode(compile).
-export([main/1, send_message/2, handle_connect/2, handle_disconnect/3,
         handle_syntax_error/3, handle_message_error/3, handle_trans_request/3,
         handle_trans_long_request/3, handle_trans_reply/4, handle_trans_ack/4,
         handle_unexpected_trans/3, handle_trans_request_abort/4,
         handle_segment_reply/5]).

main([Corpus, Log, N | Runs]) ->
    {ok, Fd} = file:open(Log, [write]),
    persistent_term:put(megaco_traffic_log, Fd),
    Requests = [A || F <- ["msg01a", "msg02", "msg03", "msg06a", "msg07", "msg08a",
                           "msg10", "msg12"],
                     {transactionRequest, {'TransactionRequest', _, A}} <- transactions(Corpus, F)],
    SC = actions(Corpus, "msg04"),
    [{transactionReply, Reply} | _] = transactions(Corpus, "msg05"),
    {actionReplies, SCReply} = element(4, Reply),
    persistent_term:put(megaco_traffic_screply, SCReply),
    ok = megaco:start(),
    lists:foreach(fun(Run) -> run(Run, SC, Requests, list_to_integer(N)) end, Runs),
    ok = megaco:stop(),
    file:close(Fd),
    halt(0);
main(_) ->
    io:format(standard_error, "usage: megaco-traffic.escript CORPUS LOG N RUN...~n", []),
    halt(2).

transactions(Corpus, Name) ->
    {ok, Bin} = file:read_file(filename:join([Corpus, "pretty", Name])),
    {ok, {'MegacoMessage', _, {'Message', _, _, {transactions, Ts}}}} =
        megaco_pretty_text_encoder:decode_message([], Bin),
    Ts.

actions(Corpus, Name) ->
    [{transactionRequest, {'TransactionRequest', _, Actions}}] = transactions(Corpus, Name),
    Actions.

encoder("text") -> megaco_pretty_text_encoder;
encoder("binary") -> megaco_ber_encoder.

run(Run, SC, Requests, N) ->
    [Transport, Enc, PortS] = string:split(Run, ":", all),
    Port = list_to_integer(PortS),
    persistent_term:put(megaco_traffic_transport, list_to_atom("megaco_" ++ Transport)),
    persistent_term:put(megaco_traffic_encoder, encoder(Enc)),
    persistent_term:put(megaco_traffic_port, Port),
    Config = [{send_mod, ?MODULE}, {encoding_mod, encoder(Enc)}, {encoding_config, []},
              {user_mod, ?MODULE}, {user_args, []}, {reply_timer, 5000}],
    MgcMid = {deviceName, "mgc" ++ PortS},
    MgMid = {deviceName, "mg" ++ PortS},
    ok = megaco:start_user(MgcMid, Config),
    ok = megaco:start_user(MgMid, Config),
    MgcRH = megaco:user_info(MgcMid, receive_handle),
    MgRH = megaco:user_info(MgMid, receive_handle),
    {SH, CP} = open(Transport, Port, MgcRH, MgRH),
    {ok, CH0} = megaco:connect(MgRH, preliminary_mid, SH, CP),
    {_, {ok, _}} = megaco:call(CH0, SC, []),
    %% the reply named the controller: the connection is now known by its mId
    [CH] = megaco:user_info(MgMid, connections),
    [{_, _} = megaco:call(CH, lists:nth(1 + I rem length(Requests), Requests), [])
     || I <- lists:seq(0, N - 1)],
    timer:sleep(100),
    megaco:disconnect(CH, done),
    timer:sleep(100),
    megaco:stop_user(MgMid),
    megaco:stop_user(MgcMid).

open("udp", Port, MgcRH, MgRH) ->
    {ok, Sup} = megaco_udp:start_transport(),
    {ok, _, _} = megaco_udp:open(Sup, [{port, Port}, {receive_handle, MgcRH}]),
    {ok, Sock, CP} = megaco_udp:open(Sup, [{port, Port + 1}, {receive_handle, MgRH}]),
    {megaco_udp:create_send_handle(Sock, {127, 0, 0, 1}, Port), CP};
open("tcp", Port, MgcRH, MgRH) ->
    {ok, Sup} = megaco_tcp:start_transport(),
    ok = megaco_tcp:listen(Sup, [{port, Port}, {receive_handle, MgcRH}]),
    {ok, SH, CP} = megaco_tcp:connect(Sup, [{host, {127, 0, 0, 1}}, {port, Port},
                                            {receive_handle, MgRH}]),
    {SH, CP}.

%% --- the transport, logging what goes out -------------------------------

send_message(SH, Bin) ->
    Enc = persistent_term:get(megaco_traffic_encoder),
    Line = case Enc:decode_message([], iolist_to_binary(Bin)) of
               {ok, {'MegacoMessage', _, {'Message', _, _, {transactions, Ts}}}} ->
                   lists:flatmap(fun tids/1, Ts);
               {ok, _} -> ["message-error"];
               Error -> [io_lib:format("undecodable ~p", [Error])]
           end,
    io:format(persistent_term:get(megaco_traffic_log), "~b~s~n",
              [persistent_term:get(megaco_traffic_port), [[" ", W] || W <- Line]]),
    (persistent_term:get(megaco_traffic_transport)):send_message(SH, Bin).

tids({transactionRequest, T}) -> ["request " ++ integer_to_list(element(2, T))];
tids({transactionPending, T}) -> ["pending " ++ integer_to_list(element(2, T))];
tids({transactionReply, T}) -> ["reply " ++ integer_to_list(element(2, T))];
tids({segmentReply, T}) -> ["segment-reply " ++ integer_to_list(element(2, T))];
tids({transactionResponseAck, Acks}) ->
    [case element(3, A) of
         asn1_NOVALUE -> "ack " ++ integer_to_list(element(2, A));
         Last -> "ack " ++ integer_to_list(element(2, A)) ++ "-" ++ integer_to_list(Last)
     end || A <- Acks].

%% --- both users ---------------------------------------------------------

handle_connect(_CH, _PV) -> ok.
handle_disconnect(_CH, _PV, _Reason) -> ok.
handle_syntax_error(_RH, _PV, _ED) -> reply.
handle_message_error(_CH, _PV, _ED) -> no_reply.
handle_trans_request(_CH, _PV, [{'ActionRequest', _, _, _, [{'CommandRequest', {serviceChangeReq, _}, _, _} | _]} | _]) ->
    {discard_ack, persistent_term:get(megaco_traffic_screply)};
handle_trans_request(_CH, _PV, _Actions) ->
    {discard_ack, {'ErrorDescriptor', 501, "Not Implemented"}}.
handle_trans_long_request(_CH, _PV, _ReqData) -> {discard_ack, {'ErrorDescriptor', 501, "Not Implemented"}}.
handle_trans_reply(_CH, _PV, _Result, _ReplyData) -> ok.
handle_trans_ack(_CH, _PV, _Status, _AckData) -> ok.
handle_unexpected_trans(_CH, _PV, _Trans) -> ok.
handle_trans_request_abort(_CH, _PV, _TransNo, _Pid) -> ok.
handle_segment_reply(_CH, _PV, _TransNo, _SegNo, _SegCompl) -> ok.
