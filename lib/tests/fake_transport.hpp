// SPDX-License-Identifier: LGPL-2.1-or-later
// A fake netlink layer for unit tests: records every request and answers
// with canned replies, errors or events, in order.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <mrc/attr.hpp>
#include <mrc/error.hpp>
#include <mrc/transport.hpp>

namespace mrc::testing {

class FakeTransport : public Transport {
public:
	struct Call {
		Message req;
		bool dump;
		std::string operation;
	};
	struct Reply {
		std::vector<Message> messages;
		std::optional<Error> error;
	};

	std::vector<Call> calls;
	std::deque<Reply> replies; ///< one per request; none left: empty ack
	std::deque<Message> events;
	bool subscribed = false;

	std::vector<Message> request(const Message &req, bool dump,
				     const std::string &operation) override
	{
		calls.push_back({req, dump, operation});
		if (replies.empty())
			return {};
		Reply r = std::move(replies.front());
		replies.pop_front();
		if (r.error)
			throw *r.error;
		return r.messages;
	}

	void subscribe() override { subscribed = true; }

	std::optional<Message> next_event(int) override
	{
		if (events.empty())
			return std::nullopt;
		Message m = events.front();
		events.pop_front();
		return m;
	}

	/// Queue a reply of one message of @cmd with @attrs.
	void reply(uint8_t cmd, const AttrWriter &attrs)
	{
		replies.push_back({{Message{cmd, attrs.bytes()}}, std::nullopt});
	}
	/// Queue a reply of several messages (a dump).
	void reply_many(std::vector<Message> msgs) { replies.push_back({std::move(msgs), {}}); }
	/// Queue an error.
	void fail(int errnum, const std::string &text)
	{
		replies.push_back({{}, Error(errnum, text)});
	}
	/// The attributes of the last request.
	Attrs last() const { return Attrs(calls.back().req.attrs); }
};

} // namespace mrc::testing
